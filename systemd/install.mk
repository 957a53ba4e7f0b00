# `sudo make install` / `sudo make uninstall`: SETUP Companion as a system service on
# Raspberry Pi OS (Bookworm or later). Included by the Makefile; run from the repository root.
#
# DESTDIR=/some/dir stages every file under that directory and skips the steps that change
# the running system (user, groups, udev, systemctl): that is how the tests run these rules.
# `make uninstall` keeps an edited config and the saved games; PURGE=yes removes them too.

SC_NAME      := setup-companion
SC_USER      := setup-companion
SC_PREFIX    := /opt/setup-companion
SC_VENV      := $(SC_PREFIX)/venv
SC_CONFDIR   := /etc/setup-companion
SC_STATEDIR  := /var/lib/setup-companion
SC_UNIT      := /etc/systemd/system/setup-companion.service
SC_RETRY     := /etc/systemd/system/setup-companion-retry.timer
SC_RULES     := /etc/udev/rules.d/99-setup-hub.rules
# The command on everyone's PATH (sudo's secure_path has /usr/local/bin too).
SC_BIN       := /usr/local/bin/setup-companion
# The web companion: its own user and units, enabled when the config's [web] enabled is true.
SC_WEB_USER  := setup-companion-web
SC_WEB_UNITS := setup-companion-web.service setup-companion-web.socket
SC_WEB_PORT  ?= 80
SC_EXAMPLE   := docs/config.example.toml
# The groups owning the hub (dialout), displays (i2c, spi), GPIO (gpio) and sound (audio).
SC_GROUPS    := dialout i2c spi gpio audio
# The system Python, so that the venv sees Raspberry Pi OS's python3-lgpio package.
SC_PYTHON    ?= /usr/bin/python3
SC_PIP_FLAGS ?=
# Every package the program runs on, pinned with the hashes of its files (`make lock` makes it
# again): root's pip installs exactly these and resolves nothing. SC_DEPS=no skips them (the
# staged tests, which run offline).
SC_LOCK      := requirements.lock
SC_DEPS      ?= yes
# What pip needs to build the package (see [tool.setuptools] in pyproject.toml).
SC_SOURCES   := pyproject.toml README.md engine hardware companion
# Bookworm moved the firmware config; older releases keep it in /boot.
SC_BOOTCONFIG ?= $(if $(wildcard $(DESTDIR)/boot/firmware/config.txt),/boot/firmware/config.txt,/boot/config.txt)
SC_BEGIN     := \# BEGIN setup-companion
SC_END       := \# END setup-companion

# Runs the rest of a recipe line only on a live install (no DESTDIR).
SC_LIVE = [ -n "$(DESTDIR)" ] ||

.PHONY: install uninstall install-check-root

install-check-root:
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" != 0 ]; then \
		echo "setup-companion: run this as root: sudo make $(MAKECMDGOALS)" >&2; exit 1; fi

install: install-check-root
	@echo "== user and groups"
	@$(SC_LIVE) for g in $(SC_GROUPS); do getent group $$g >/dev/null || groupadd --system $$g; done
	@$(SC_LIVE) getent passwd $(SC_USER) >/dev/null || useradd --system --user-group \
		--no-create-home --home-dir $(SC_STATEDIR) --shell /usr/sbin/nologin \
		--comment "SETUP Companion" $(SC_USER)
	@$(SC_LIVE) for g in $(SC_GROUPS); do usermod --append --groups $$g $(SC_USER); done
	@$(SC_LIVE) getent passwd $(SC_WEB_USER) >/dev/null || useradd --system --user-group \
		--no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
		--comment "SETUP Companion web page" $(SC_WEB_USER)
	@$(SC_LIVE) usermod --append --groups $(SC_USER) $(SC_WEB_USER)
	@echo "== program: $(SC_VENV)"
	@[ -x $(DESTDIR)$(SC_VENV)/bin/python ] || \
		$(SC_PYTHON) -m venv --system-site-packages $(DESTDIR)$(SC_VENV)
	@[ "$(SC_DEPS)" = no ] || $(DESTDIR)$(SC_VENV)/bin/python -m pip install --quiet \
		--disable-pip-version-check --require-hashes --no-deps $(SC_PIP_FLAGS) -r $(SC_LOCK)
	@# Built from a copy, so that root leaves no build/ or egg-info behind in your clone; with
	@# the locked setuptools and no dependencies of its own: they all came from the lock.
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		cp -R $(SC_SOURCES) "$$tmp" && \
		$(DESTDIR)$(SC_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
			--no-deps --no-build-isolation $(SC_PIP_FLAGS) "$$tmp"
	@$(DESTDIR)$(SC_VENV)/bin/python -c "import lgpio" 2>/dev/null || echo \
		"warning: lgpio is missing: buttons and buzzer need it (sudo apt install python3-lgpio)"
	@[ -f $(DESTDIR)/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || echo \
		"warning: DejaVu Sans is missing: Cyrillic and the suit symbols show as boxes (sudo apt install fonts-dejavu-core)"
	install -d -m 0755 $(dir $(DESTDIR)$(SC_BIN))
	ln -sfn $(SC_VENV)/bin/setup-companion $(DESTDIR)$(SC_BIN)
	@echo "== service and udev rule"
	install -D -m 0644 systemd/setup-companion.service $(DESTDIR)$(SC_UNIT)
	install -D -m 0644 systemd/setup-companion-retry.timer $(DESTDIR)$(SC_RETRY)
	install -D -m 0644 systemd/99-setup-hub.rules $(DESTDIR)$(SC_RULES)
	install -D -m 0644 systemd/setup-companion-web.service \
		$(DESTDIR)/etc/systemd/system/setup-companion-web.service
	sed 's/^ListenStream=80$$/ListenStream=$(SC_WEB_PORT)/' systemd/setup-companion-web.socket \
		> $(DESTDIR)/etc/systemd/system/setup-companion-web.socket
	@echo "== configuration: $(SC_CONFDIR)"
	install -d -m 0755 $(DESTDIR)$(SC_CONFDIR)
	@if [ -f $(SC_EXAMPLE) ]; then \
		install -m 0644 $(SC_EXAMPLE) $(DESTDIR)$(SC_CONFDIR)/config.example.toml; \
		if [ -e $(DESTDIR)$(SC_CONFDIR)/config.toml ]; then \
			echo "kept your $(SC_CONFDIR)/config.toml (the newest example is config.example.toml)"; \
		else \
			install -m 0644 $(SC_EXAMPLE) $(DESTDIR)$(SC_CONFDIR)/config.toml; \
			echo "wrote the default $(SC_CONFDIR)/config.toml"; \
		fi; \
	else \
		echo "warning: $(SC_EXAMPLE) is missing: no default config written (built-in defaults apply)"; \
	fi
	@echo "== boot configuration: $(SC_BOOTCONFIG)"
	@if [ ! -f $(DESTDIR)$(SC_BOOTCONFIG) ]; then \
		echo "warning: no $(SC_BOOTCONFIG): add the lines of systemd/config.txt by hand"; \
	elif grep -qx '$(SC_BEGIN)' $(DESTDIR)$(SC_BOOTCONFIG); then \
		echo "already there"; \
	else \
		sed -n '/^$(SC_BEGIN)$$/,/^$(SC_END)$$/p' systemd/config.txt >> $(DESTDIR)$(SC_BOOTCONFIG); \
		echo "added I2C and the display multiplexer: reboot once to apply"; \
	fi
	@echo "== starting"
	@$(SC_LIVE) udevadm control --reload-rules
	@$(SC_LIVE) udevadm trigger --subsystem-match=tty --action=add
	@$(SC_LIVE) systemctl daemon-reload
	@$(SC_LIVE) systemctl enable $(SC_NAME).service
	@$(SC_LIVE) systemctl restart $(SC_NAME).service
	@$(SC_LIVE) if $(SC_VENV)/bin/python -c "import sys; from companion.config import load_config; \
		sys.exit(not load_config('$(SC_CONFDIR)/config.toml').web.enabled)" 2>/dev/null; then \
		systemctl enable --now setup-companion-web.socket; \
		echo "web companion: http://$$(hostname).local$(if $(filter 80,$(SC_WEB_PORT)),,:$(SC_WEB_PORT))/"; \
	else systemctl disable --now setup-companion-web.socket setup-companion-web.service 2>/dev/null; \
		echo "web companion off ([web] enabled = true in $(SC_CONFDIR)/config.toml, then make install)"; fi
	@echo "installed. Check it with: systemctl status $(SC_NAME); journalctl -u $(SC_NAME) -f"

uninstall: install-check-root
	@$(SC_LIVE) systemctl disable --now $(SC_NAME).service 2>/dev/null || true
	@$(SC_LIVE) systemctl stop $(SC_NAME)-retry.timer 2>/dev/null || true
	@$(SC_LIVE) systemctl disable --now $(SC_WEB_UNITS) 2>/dev/null || true
	rm -f $(DESTDIR)$(SC_UNIT) $(DESTDIR)$(SC_RETRY) $(DESTDIR)$(SC_RULES) $(DESTDIR)$(SC_BIN) \
		$(addprefix $(DESTDIR)/etc/systemd/system/,$(SC_WEB_UNITS))
	@$(SC_LIVE) systemctl daemon-reload
	@$(SC_LIVE) udevadm control --reload-rules
	rm -rf $(DESTDIR)$(SC_PREFIX)
	@if [ -f $(DESTDIR)$(SC_BOOTCONFIG) ]; then \
		sed -i '/^$(SC_BEGIN)$$/,/^$(SC_END)$$/d' $(DESTDIR)$(SC_BOOTCONFIG); fi
	@if [ "$(PURGE)" = yes ]; then \
		rm -rf $(DESTDIR)$(SC_CONFDIR) $(DESTDIR)$(SC_STATEDIR) $(DESTDIR)/var/lib/private/$(SC_NAME); \
		echo "removed the configuration and the saved games"; \
	else \
		c=$(DESTDIR)$(SC_CONFDIR); \
		if [ -f $$c/config.toml ] && cmp -s $$c/config.toml $$c/config.example.toml; then \
			rm -f $$c/config.toml; fi; \
		rm -f $$c/config.example.toml; \
		[ ! -d $$c ] || rmdir --ignore-fail-on-non-empty $$c; \
		[ ! -e $$c/config.toml ] || echo "kept your edited $(SC_CONFDIR)/config.toml"; \
		echo "kept the saved games in $(SC_STATEDIR) (PURGE=yes removes them)"; \
	fi
	@[ "$(PURGE)" != yes ] || $(SC_LIVE) ! getent passwd $(SC_WEB_USER) >/dev/null || userdel $(SC_WEB_USER)
	@[ "$(PURGE)" != yes ] || $(SC_LIVE) ! getent passwd $(SC_USER) >/dev/null || userdel $(SC_USER)
	@echo "uninstalled."
