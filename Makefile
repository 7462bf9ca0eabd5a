# touchd: common tasks. The README's two commands are scripts/demo.sh and scripts/test.sh.
#   make deps       the Debian packages touchd builds against (apt, as root)
#   make release    one self-contained binary (the Swift runtime linked statically): touchd, which
#                   is the client when invoked as touchctl
#   make install    binaries, units, sysusers/tmpfiles, layout, docs, man pages, completions
#   make deb        the Debian package, in out/ (needs debhelper; see docs/operations.md)
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
DOCDIR ?= $(PREFIX)/share/doc/touchd
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# Installed binaries are stripped; the Debian build leaves that to dh_strip (INSTALL_STRIP=).
INSTALL_STRIP ?= -s
DESTDIR ?=
BINDIR := $(PREFIX)/bin
# The release build's scratch directory, shared with scripts/vm/e2e.sh and scripts/bench/daemon-vm.sh.
SCRATCH ?= .build-release
RELEASE := $(SCRATCH)/release
# The client is the daemon's binary invoked as `touchctl`: a link to it, beside the build (never in
# SwiftPM's own directory, where building the `touchctl` product would write through it).
CLIENT := $(SCRATCH)/multicall/touchctl
SWIFT_RELEASE := swift build -c release --static-swift-stdlib --scratch-path $(SCRATCH)
# The one version: Sources/TouchProtocol/ReleaseVersion.swift (debian/changelog must agree).
VERSION := $(shell sed -n 's/^ *public static let number = "\(.*\)"$$/\1/p' Sources/TouchProtocol/ReleaseVersion.swift)

.PHONY: deps build demo test bench release man install uninstall deb version clean

deps:
	@bash scripts/install-deps.sh

build: deps
	swift build

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

# Figures for docs/performance.md (release build, valgrind, the shared recordings): one table.
bench:
	bash scripts/bench.sh

version:
	@echo $(VERSION)

release:
	@# SwiftPM does not see the link's script (link/hot-code.ld) as an input: a newer one relinks.
	@if [ link/hot-code.ld -nt $(RELEASE)/touchd ]; then rm -f $(RELEASE)/touchd; fi
	$(SWIFT_RELEASE) --product touchd
	mkdir -p $(dir $(CLIENT)) && ln -sfn ../release/touchd $(CLIENT)

# touchd(8), touchctl(1), touchd-layout(5): man/*.in with the options and the layout's keys filled in,
# written to man/ beside their templates, where they are committed (the tests check they are fresh).
man: release
	python3 scripts/man/generate.py --touchd $(RELEASE)/touchd --touchctl $(CLIENT) --out man

# Binaries, systemd units (with this PREFIX in ExecStart) under this PREFIX, sysusers/tmpfiles, an
# example layout in $(SYSCONFDIR)/touchd (never overwriting one that is there), docs, man pages and
# shell completions. Nothing is installed from the network: `make deps` does that, separately.
install: release man
	install -Dm755 $(INSTALL_STRIP) $(RELEASE)/touchd $(DESTDIR)$(BINDIR)/touchd
	ln -sfn touchd $(DESTDIR)$(BINDIR)/touchctl
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's#/usr/local/bin/touchd#$(BINDIR)/touchd#' -e 's#/etc/touchd/#$(SYSCONFDIR)/touchd/#' \
		-e 's#file:///usr/share/doc/touchd/#file://$(DOCDIR)/#' \
		systemd/touchd.service > $(DESTDIR)$(UNITDIR)/touchd.service
	sed -e 's#file:///usr/share/doc/touchd/#file://$(DOCDIR)/#' systemd/touchd.socket > $(DESTDIR)$(UNITDIR)/touchd.socket
	chmod 644 $(DESTDIR)$(UNITDIR)/touchd.service $(DESTDIR)$(UNITDIR)/touchd.socket
	install -Dm644 systemd/touchd.sysusers $(DESTDIR)$(SYSUSERSDIR)/touchd.conf
	install -Dm644 systemd/touchd.tmpfiles $(DESTDIR)$(TMPFILESDIR)/touchd.conf
	install -d $(DESTDIR)$(SYSCONFDIR)/touchd
	[ -e $(DESTDIR)$(SYSCONFDIR)/touchd/layout.toml ] || install -m644 config/kiosk.toml $(DESTDIR)$(SYSCONFDIR)/touchd/layout.toml
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m644 README.md docs/layout.md docs/protocol.md docs/operations.md docs/limits.md $(DESTDIR)$(DOCDIR)/
	install -m644 config/kiosk.toml config/media-kiosk.toml config/seed-experiment.toml examples/kiosk_client.py \
		examples/calibrate.py $(DESTDIR)$(DOCDIR)/examples/
	install -Dm644 man/touchd.8 $(DESTDIR)$(MANDIR)/man8/touchd.8
	install -Dm644 man/touchctl.1 $(DESTDIR)$(MANDIR)/man1/touchctl.1
	install -Dm644 man/touchd-layout.5 $(DESTDIR)$(MANDIR)/man5/touchd-layout.5
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	for program in $(RELEASE)/touchd $(CLIENT); do \
		tool=$$(basename $$program) && \
		$$program --generate-completion-script bash | sed '1{/^#!/d}' > $(DESTDIR)$(BASHCOMPDIR)/$$tool && \
		$$program --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_$$tool && \
		$$program --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/touchd $(DESTDIR)$(BINDIR)/touchctl
	rm -f $(DESTDIR)$(UNITDIR)/touchd.service $(DESTDIR)$(UNITDIR)/touchd.socket
	rm -f $(DESTDIR)$(SYSUSERSDIR)/touchd.conf $(DESTDIR)$(TMPFILESDIR)/touchd.conf
	rm -rf $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(MANDIR)/man8/touchd.8 $(DESTDIR)$(MANDIR)/man1/touchctl.1 $(DESTDIR)$(MANDIR)/man5/touchd-layout.5
	for tool in touchd touchctl; do \
		rm -f $(DESTDIR)$(BASHCOMPDIR)/$$tool $(DESTDIR)$(ZSHCOMPDIR)/_$$tool $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish; \
	done

# The Debian package (debian/, debhelper), written to out/. The version is checked first: the
# package's must be the one the binaries print.
deb:
	@changelog=$$(dpkg-parsechangelog -S Version) && [ "$${changelog%%-*}" = "$(VERSION)" ] || \
		{ echo "debian/changelog names $$changelog, the release is $(VERSION) (Sources/TouchProtocol/ReleaseVersion.swift)" >&2; exit 1; }
	rm -rf debian/touchd debian/.debhelper debian/debhelper-build-stamp debian/files debian/touchd.substvars
	mkdir -p out
	debian/rules binary
	@ls -l out/touchd_$(VERSION)_*.deb

clean:
	rm -rf .build .build-* out
	rm -rf debian/touchd debian/.debhelper debian/debhelper-build-stamp debian/files debian/touchd.substvars
