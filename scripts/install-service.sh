#!/usr/bin/env bash
# Starts the table companion at boot (kiosk, fullscreen) on a Raspberry Pi: installs systemd/companion.service for
# this user and this folder, and enables it. --print shows the unit it would install and changes nothing.
# A template edited by hand is easy to get wrong (Raspberry Pi OS has no user "pi" unless you made one), and a wrong
# User= or path restarts a failing service every three seconds with nothing on the screen.
set -euo pipefail
cd "$(dirname "$0")/.."

user="${SUDO_USER:-$(id -un)}"
group="$(id -gn "$user")"
here="$(pwd -P)"
unit="$(sed -e "s|^User=.*|User=$user|" -e "s|^Group=.*|Group=$group|" -e "s|/home/pi/table-companion|$here|g" \
  systemd/companion.service)"

# Raspberry Pi OS with the desktop sends ALSA's default sound to PipeWire, which runs in a login session only: booted
# to the console for the kiosk there is none, and the companion was silent ("No sound device"). Lingering starts the
# user's PipeWire at boot; the service finds it through XDG_RUNTIME_DIR, once the user's manager has started.
pipewire_conf="${PIPEWIRE_ALSA_CONF:-/etc/alsa/conf.d/99-pipewire-default.conf}"
linger=""
if [ -e "$pipewire_conf" ]; then
  uid="$(id -u "$user")"
  linger="$user"
  unit="$(printf '%s\n' "$unit" | sed \
    -e "s|^After=local-fs.target sound.target\$|& user@$uid.service|" \
    -e "s|^Wants=sound.target\$|& user@$uid.service|" \
    -e "s|^Environment=PYTHONUNBUFFERED=1\$|&\nEnvironment=XDG_RUNTIME_DIR=/run/user/$uid|")"
fi

if [ "${1:-}" = "--print" ]; then
  printf '%s\n' "$unit"
  exit 0
fi
if [ ! -x .venv/bin/companion ]; then
  echo "install-service: run ./scripts/setup.sh first (no .venv/bin/companion here)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
printf '%s\n' "$unit" | $sudo tee /etc/systemd/system/companion.service >/dev/null
if [ -n "$linger" ]; then
  $sudo loginctl enable-linger "$linger"  # the user's PipeWire from boot, without anybody logging in
fi
$sudo systemctl daemon-reload
# said before the start: run from the Pi's own console, starting the companion ends that login (it owns tty1)
echo "install-service: the companion starts at boot as $user from $here (logs: journalctl -u companion -f)"
echo "install-service: it owns the first console (tty1), whose login prompt makes way; to get that back after" \
     "sudo systemctl disable --now companion: sudo systemctl start getty@tty1"
if [ "$(systemctl get-default 2>/dev/null)" = "graphical.target" ]; then
  echo "install-service: this Pi boots into its desktop, which holds the screen the kiosk draws on; boot to the" \
       "console: sudo raspi-config nonint do_boot_behaviour B1, then sudo reboot" >&2
fi
$sudo systemctl enable --now companion
