print("startup")
