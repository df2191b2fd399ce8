# StartupKit: `make run` runs the sample start-up graph, `make test` builds everything and runs
# every test (plain and under the thread sanitizer).
SWIFT ?= swift
DOCC ?= $(shell xcrun --find docc 2>/dev/null || echo docc)
CONFIG ?= debug
PREFIX ?= /usr/local
STARTUP = $(SWIFT) run --configuration $(CONFIG) startup

.PHONY: build run plan stack test test-plain test-tsan smoke-release docs bench static-startup install clean

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

# The binary `make install` installs, on the sample: a crash only release builds show (one did)
# fails here.
smoke-release: static-startup
	@if [ -f "$(STATIC_CXX_ARCHIVE)" ] && command -v readelf > /dev/null; then \
	    ! readelf -d .build-static/release/startup | grep -E 'NEEDED.*(libstdc\+\+|libgcc_s)' \
	    || { echo "error: the release startup still loads the shared C++ runtime"; exit 1; }; fi
	.build-static/release/startup run --no-report --file commands.json > /dev/null
	.build-static/release/startup run --simulate --no-report --format json --file commands.json > /dev/null
	$(SWIFT) build --product startup-test-server
	.build-static/release/startup run --no-report --file examples/dev-stack/commands.json -- true > /dev/null

# The DocC archives of the libraries, .build/docs/<Module>.doccarchive, by the toolchain's own docc
# (no plugin) from each catalog and the compiler's symbol graphs of the public API. The graphs come
# from a build of their own (so its flags do not invalidate the main one); each module's are copied
# alone into .build/symbol-graphs/<Module>. A warning (a broken link, say) fails it, and so does a
# public type the landing page's Topics leave out.
DOCS_MODULES = StartupKit StartupLifecycle StartupManifest StartupReporting
DOCS_BUILD = .build/docs-build

docs:
	@for module in $(DOCS_MODULES); do \
	    $(SWIFT) build --target "$$module" --scratch-path $(DOCS_BUILD) \
	        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$(CURDIR)/$(DOCS_BUILD)/symbol-graphs" \
	        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -emit-extension-block-symbols || exit 1; \
	    graphs=".build/symbol-graphs/$$module" && \
	    rm -rf "$$graphs" ".build/docs/$$module.doccarchive" && mkdir -p "$$graphs" .build/docs && \
	    find $(DOCS_BUILD)/symbol-graphs \( -name "$$module.symbols.json" -o -name "$$module@*.symbols.json" \) \
	        -exec cp {} "$$graphs/" \; && \
	    echo "docc convert Sources/$$module/$$module.docc" && \
	    $(DOCC) convert "Sources/$$module/$$module.docc" --additional-symbol-graph-dir "$$graphs" \
	        --fallback-display-name "$$module" --fallback-bundle-identifier "$$module" \
	        --output-path ".build/docs/$$module.doccarchive" --warnings-as-errors || exit 1; \
	    landing=".build/docs/$$module.doccarchive/data/documentation/$$(echo $$module | tr '[:upper:]' '[:lower:]').json" && \
	    if grep -o '{[^{}]*"generated":true[^{}]*}' "$$landing"; then \
	        echo "error: docc grouped the symbols above itself: curate them in the Topics of Sources/$$module/$$module.docc/$$module.md"; \
	        exit 1; \
	    fi; \
	done

# Release build of the CLI first: the bench times it against make and ninja, and its services against the test server.
# The CLI rows time the `startup` that `make install` installs (the Swift runtime linked in, which
# also starts in half the time of a dynamically linked one).
bench: static-startup
	$(SWIFT) build --configuration release --product startup-test-server $(STATIC_FLAGS) --scratch-path .build-static
	STARTUP_BIN=.build-static/release/startup $(SWIFT) run --configuration release StartupBench $(BENCH_ARGS)

# A release `startup` with the Swift runtime linked in, so it runs where no Swift toolchain is
# installed: `make install PREFIX=$HOME/.local`. Tuned for start-up, which every run pays: no
# $ORIGIN search path (nothing is loaded from beside it), and type metadata reached by direct
# accessor calls rather than by demangling type names, each checked against every protocol
# conformance in the binary at first use. Linked at a fixed address (not PIE) and exporting no
# symbols of its own: the loader then has no relative relocations of the Swift metadata to apply
# and fewer pages to fault in, and the runtime's start-up `dladdr` scans a few hundred dynamic
# symbols, not thousands. The C library and the kernel still place the stacks, heap and
# libraries at random.
STATIC_FLAGS = --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic

# On Linux the C++ runtime the Swift runtime is written against is linked in too, so the binary
# needs nothing but the C library (no libstdc++ or libgcc_s of a matching version) and starts
# sooner, with two fewer libraries to load and relocate. The toolchain asks for
# `-lstdc++`; a folder holding only libstdc++.a, searched first, makes that the archive. The archive
# is the one the toolchain's own clang (beside `$(SWIFT)`, symbolic links followed) links, else the
# one of the clang first on PATH. Where none is found, the shared library is used, as before.
TOOLCHAIN_CLANG := $(shell folder=$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")" 2>/dev/null); \
	if [ -x "$$folder/clang" ]; then echo "$$folder/clang"; else echo clang; fi)
STATIC_CXX_ARCHIVE := $(shell "$(TOOLCHAIN_CLANG)" -print-file-name=libstdc++.a 2>/dev/null)
STATIC_CXX_FOLDER = .build-static/static-c++
ifneq ($(filter /%,$(STATIC_CXX_ARCHIVE)),)
STATIC_FLAGS += -Xswiftc "-L$(CURDIR)/$(STATIC_CXX_FOLDER)" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
endif

static-startup:
	@if [ -f "$(STATIC_CXX_ARCHIVE)" ]; then mkdir -p $(STATIC_CXX_FOLDER) && ln -sf "$(STATIC_CXX_ARCHIVE)" $(STATIC_CXX_FOLDER)/libstdc++.a; fi
	$(SWIFT) build --configuration release --product startup $(STATIC_FLAGS) --scratch-path .build-static

install: static-startup
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build-static/release/startup "$(DESTDIR)$(PREFIX)/bin/startup"

# The toolchain's swift-format with the committed .swift-format: `format` rewrites, `lint` checks
# (CI runs it).
format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests

clean:
	rm -rf .build .build-tsan .build-static
