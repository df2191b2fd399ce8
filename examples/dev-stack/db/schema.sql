create table users (id integer primary key, name text);
