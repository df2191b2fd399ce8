# StartupKit: `make run` runs the sample start-up graph, `make test` builds everything and runs
# every test (plain and under the thread sanitizer).
SWIFT ?= swift
CONFIG ?= debug
PREFIX ?= /usr/local
STARTUP = $(SWIFT) run --configuration $(CONFIG) startup

.PHONY: build run plan stack test test-plain test-tsan smoke-release bench install clean

build:
	$(SWIFT) build --configuration $(CONFIG)

run: build
	$(STARTUP) run --trace --file commands.json

plan: build
	$(STARTUP) plan --file commands.json

# The services sample: a local stack held until Ctrl-C (its stand-in servers are built by `build`).
stack: build
	$(STARTUP) run --file examples/dev-stack/commands.json

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
	$(SWIFT) build --product startup-test-server
	.build/release/startup run --no-report --file examples/dev-stack/commands.json -- true > /dev/null

# Release build of the CLI first: the bench times it against make and ninja, and its services against the test server.
bench:
	$(SWIFT) build --configuration release --product startup
	$(SWIFT) build --configuration release --product startup-test-server
	$(SWIFT) run --configuration release StartupBench $(BENCH_ARGS)

# A release `startup` with the Swift runtime and Foundation linked in, so it runs where no Swift
# toolchain is installed: `make install PREFIX=$HOME/.local`.
install:
	$(SWIFT) build --configuration release --product startup --static-swift-stdlib --scratch-path .build-static
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build-static/release/startup "$(DESTDIR)$(PREFIX)/bin/startup"

clean:
	rm -rf .build .build-tsan .build-static
