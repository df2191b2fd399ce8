# StartupKit: `make run` runs the sample start-up graph, `make test` builds everything and runs
# every test (plain and under the thread sanitizer).
SWIFT ?= swift
CONFIG ?= debug
STARTUP = $(SWIFT) run --configuration $(CONFIG) startup

.PHONY: build run plan test test-plain test-tsan smoke-release bench clean

build:
	$(SWIFT) build --configuration $(CONFIG)

run: build
	$(STARTUP) run --trace --file commands.json

plan: build
	$(STARTUP) plan --file commands.json

test: test-plain test-tsan

test-plain:
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The thread sanitizer in its own build folder, so it does not invalidate the plain build.
test-tsan:
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# The optimized binary on the sample: a crash only release builds show (one did) fails here.
smoke-release:
	$(SWIFT) build --configuration release --product startup
	.build/release/startup run --no-report --file commands.json > /dev/null
	.build/release/startup run --simulate --no-report --format json --file commands.json > /dev/null

# Release build of the CLI first: the bench times it against make and ninja, and its services against the test server.
bench:
	$(SWIFT) build --configuration release --product startup
	$(SWIFT) build --configuration release --product startup-test-server
	$(SWIFT) run --configuration release StartupBench $(BENCH_ARGS)

clean:
	rm -rf .build .build-tsan
