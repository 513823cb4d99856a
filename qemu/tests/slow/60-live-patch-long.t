#!/bin/bash
# qemu/tests/60-live-patch.t for 240 s: long enough that the kernel without
# kernel/quirks/0001 oopsed in each of 3 boots.  One boot of about 4.5 min.
LIVE_PATCH_SECONDS=${LIVE_PATCH_SECONDS:-240} exec bash "$(dirname "$0")/../60-live-patch.t"
