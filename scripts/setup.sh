#!/usr/bin/env bash
# Sets up the table companion on Debian, Ubuntu or Raspberry Pi OS: OS packages (where apt is), a virtual
# environment in .venv, and the companion itself. Safe to run again. --test also installs what the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."

with_test=0
[ "${1:-}" = "--test" ] && with_test=1

is_pi=0
if grep -qi "raspberry pi" /proc/device-tree/model 2>/dev/null; then is_pi=1; fi

if ! command -v python3 >/dev/null 2>&1; then
  echo "setup: python3 is missing; install it (sudo apt install python3) and run this again" >&2
  exit 1
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  # before anything is installed: pip would say only "requires a different Python", minutes into the download
  echo "setup: the companion needs Python 3.11 or newer; this system's python3 is" \
       "$(python3 -V 2>&1 | cut -d' ' -f2) (Debian 12, Ubuntu 24.04 and Raspberry Pi OS bookworm have 3.11 or newer)" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi

if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
  # espeak-ng speaks the announcements; python3-venv makes the virtual environment; sox measures speech in tests;
  # on a Pi the camera and GPIO libraries come from the OS (they cannot be installed from PyPI there).
  wanted="espeak-ng"
  # (fonts-dejavu-core: the screen's bundled font lacks most Vietnamese letters (ễ ơ ư ọ), Yoruba's ẹ ṣ, ə and ẞ;
  # names with them are drawn in DejaVu Sans Bold, without it they are refused: "Nguyễn" had to be misspelled)
  wanted="$wanted fonts-dejavu-core"
  # (venv itself is in Debian's standard library package; what it needs to make one, ensurepip, is not)
  python3 -c "import ensurepip" >/dev/null 2>&1 || wanted="$wanted python3-venv"
  [ "$with_test" = 1 ] && wanted="$wanted sox"
  # (the screen without a desktop, SDL's kmsdrm, opens its window through EGL and GBM: Lite may lack them, and
  # without libgl1-mesa-dri, the Pi's vc4/v3d driver, they find no GPU: it came only as python3-picamera2's
  # Recommends, which an install with --no-install-recommends or a removed picamera2 leaves out)
  [ "$is_pi" = 1 ] && wanted="$wanted python3-picamera2 python3-lgpio libegl1 libgles2 libgbm1 libgl1-mesa-dri"
  missing=""
  for p in $wanted; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    echo "setup: installing OS packages:$missing"
    if ! { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } \
        >/tmp/companion-apt.log 2>&1; then
      echo "setup: could not install$missing (see /tmp/companion-apt.log); the companion runs without them" \
           "(no speech without espeak-ng; on a Pi no Pi camera without python3-picamera2, no buttons without" \
           "python3-lgpio, no fullscreen without a desktop without libegl1 libgles2 libgbm1 libgl1-mesa-dri;" \
           "no Vietnamese or Yoruba names without fonts-dejavu-core)" >&2
    fi
  fi
fi

venv_flags=""
# On a Pi the venv sees the OS's picamera2 and lgpio.
[ "$is_pi" = 1 ] && venv_flags="--system-site-packages"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv $venv_flags .venv
fi

constraints=""
if [ "$is_pi" = 1 ]; then
  # picamera2 from the OS is built against the OS numpy: keep pip from installing another numpy beside it.
  sysnp=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
  if [ -n "$sysnp" ]; then
    echo "numpy==$sysnp" > .venv/constraints.txt
    constraints="-c .venv/constraints.txt"
  else
    echo "setup: the OS's numpy is missing (python3-picamera2 not installed?): the Pi camera may not load;" \
         "install python3-picamera2 and run this again" >&2
  fi
fi

extra=""
[ "$with_test" = 1 ] && extra="[test]"
echo "setup: installing the companion into .venv (OpenCV, pygame-ce, numpy: about 100 MB the first time)"
.venv/bin/python -m pip install --quiet --disable-pip-version-check $constraints -e ".$extra"
# the bytecode written now, not by the first start after an update (some two seconds more on a Pi)
.venv/bin/python -m compileall -q companion vision hardware >/dev/null || true
# an update by the README (git pull, this) kept the boot service installed before it, though the unit had changed
# since (the console it owns, its keyboard): said, as install-service.sh writes it again
unit_file="${COMPANION_UNIT:-/etc/systemd/system/companion.service}"
if [ -f "$unit_file" ] && [ "$(bash scripts/install-service.sh --print 2>/dev/null)" != "$(cat "$unit_file")" ]; then
  echo "setup: the service that starts the companion at boot is out of date (an update changed it):" \
       "run ./scripts/install-service.sh" >&2
fi
echo "setup: ready (.venv)"
