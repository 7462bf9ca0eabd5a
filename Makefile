# touchd: common tasks. The README's two commands are scripts/demo.sh and scripts/test.sh.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
UNITDIR ?= /lib/systemd/system
DESTDIR ?=
BINDIR := $(PREFIX)/bin
RELEASE := .build/release

.PHONY: deps build demo test bench release install uninstall clean

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

release: deps
	swift build -c release --product touchd
	swift build -c release --product touchctl

# Binaries, systemd units (with this PREFIX in ExecStart), sysusers/tmpfiles, an example layout in
# $(SYSCONFDIR)/touchd (never overwriting one that is there), man pages and shell completions.
install: release
	install -Dm755 $(RELEASE)/touchd $(DESTDIR)$(BINDIR)/touchd
	install -Dm755 $(RELEASE)/touchctl $(DESTDIR)$(BINDIR)/touchctl
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's#/usr/local/bin/touchd#$(BINDIR)/touchd#' -e 's#/etc/touchd/#$(SYSCONFDIR)/touchd/#' \
		systemd/touchd.service > $(DESTDIR)$(UNITDIR)/touchd.service
	install -m644 systemd/touchd.socket $(DESTDIR)$(UNITDIR)/touchd.socket
	install -Dm644 systemd/touchd.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/touchd.conf
	install -Dm644 systemd/touchd.tmpfiles $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/touchd.conf
	install -d $(DESTDIR)$(SYSCONFDIR)/touchd
	[ -e $(DESTDIR)$(SYSCONFDIR)/touchd/layout.toml ] || install -m644 config/kiosk.toml $(DESTDIR)$(SYSCONFDIR)/touchd/layout.toml
	install -Dm644 docs/layout.md $(DESTDIR)$(PREFIX)/share/doc/touchd/layout.md
	install -Dm644 docs/protocol.md $(DESTDIR)$(PREFIX)/share/doc/touchd/protocol.md
	install -Dm644 docs/operations.md $(DESTDIR)$(PREFIX)/share/doc/touchd/operations.md
	rm -rf .build/man && mkdir -p .build/man
	swift package --allow-writing-to-directory .build/man generate-manual --output-directory .build/man
	install -Dm644 .build/man/touchd.1 $(DESTDIR)$(PREFIX)/share/man/man1/touchd.1
	install -Dm644 .build/man/touchctl.1 $(DESTDIR)$(PREFIX)/share/man/man1/touchctl.1
	for tool in touchd touchctl; do \
		install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d; \
		$(RELEASE)/$$tool --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$tool; \
		$(RELEASE)/$$tool --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$tool; \
		$(RELEASE)/$$tool --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$tool.fish; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/touchd $(DESTDIR)$(BINDIR)/touchctl
	rm -f $(DESTDIR)$(UNITDIR)/touchd.service $(DESTDIR)$(UNITDIR)/touchd.socket
	rm -f $(DESTDIR)$(PREFIX)/lib/sysusers.d/touchd.conf $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/touchd.conf
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/touchd
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/touchd.1 $(DESTDIR)$(PREFIX)/share/man/man1/touchctl.1
	for tool in touchd touchctl; do \
		rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$tool $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$tool \
			$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$tool.fish; \
	done

clean:
	rm -rf .build .build-*
