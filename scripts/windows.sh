#!/usr/bin/env bash
# The Windows build of Hoshi: cross-compiled on Debian bookworm (x86_64), tested under Wine.
#
#   scripts/windows.sh deps [test]  install what the build (and with `test`, the tests) need
#   scripts/windows.sh build        bin/pbrain-hoshi.exe and its level copies
#   scripts/windows.sh test         bin/pbrain-hoshi.exe under Wine, driven by the Linux tests
#   scripts/windows.sh gomocup      dist/pbrain-hoshi.zip, ready to submit to Gomocup
#
# The route: rustup has no Windows std here and cannot download one, but Debian
# bookworm-security carries a second Rust (rustc-web, cargo-web, kept for its browsers) with
# that very compiler's std source (rust-web-src). cargo's -Zbuild-std (unlocked on a stable
# compiler by RUSTC_BOOTSTRAP=1) compiles std for x86_64-pc-windows-gnu from that source, and
# MinGW-w64 links (.cargo/config.toml). Everything comes from apt and crates.io.
#
# Environment (the Makefile sets these): WINDOWS_TARGET_DIR (cargo's output for this build,
# kept apart from the native one because another compiler makes it; default target/windows),
# JOBS (cargo -j, default 2), LEVELS (the level copies, e.g. "easy normal hard master50").
set -euo pipefail
cd "$(dirname "$0")/.."

TRIPLE=x86_64-pc-windows-gnu
# Absolute, for Wine and for cargo alike.
WINDOWS_TARGET_DIR=$(realpath -m "${WINDOWS_TARGET_DIR:-${CARGO_TARGET_DIR:-target}/windows}")
JOBS=${JOBS:-2}
LEVELS=${LEVELS:-easy normal hard}
# Debian's own Rust, by full path: rustup's ~/.cargo/bin comes first on PATH.
DEB_CARGO=/usr/bin/cargo
DEB_RUSTC=/usr/bin/rustc
# Debian puts no wine64 on PATH; the plain `wine` wrapper warns that wine32 is missing.
WINE=/usr/lib/wine/wine64
BUILD_PACKAGES=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 zip)
TEST_PACKAGES=(wine wine64)

say() { printf 'windows: %s\n' "$*" >&2; }
die() {
    say "FAILED: $*"
    exit 1
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the packages not yet installed. A failure stops everything: a build that quietly
# skipped its toolchain would pass for one that worked.
deps() {
    local packages=("${BUILD_PACKAGES[@]}") missing=() p
    [ "${1:-}" = test ] && packages+=("${TEST_PACKAGES[@]}")
    command -v dpkg-query >/dev/null || die "this build needs Debian bookworm's apt (packages: ${packages[*]})"
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return
    say "installing from apt: ${missing[*]}"
    # Retries ride out a dropped connection; what still fails is reported, not skipped.
    as_root apt-get -o Acquire::Retries=5 update -qq ||
        die "apt-get update failed (network or mirror down?): nothing was built or tested"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=5 install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null ||
        die "apt-get install ${missing[*]} failed: nothing was built or tested"
}

build() {
    [ -x $DEB_CARGO ] && [ -x $DEB_RUSTC ] || die "no $DEB_CARGO or $DEB_RUSTC: run 'scripts/windows.sh deps'"
    local std_src
    std_src=$($DEB_RUSTC --print sysroot)/lib/rustlib/src/rust/library
    [ -f "$std_src/Cargo.lock" ] || die "no std source at $std_src: install rust-web-src"
    # std must be built from the compiler's own source; apt upgrades the two together, but a
    # half-finished upgrade would fail deep inside std with an unhelpful message.
    local compiler std_version
    compiler=$(dpkg-query -W -f='${Version}' rustc-web) || die "rustc-web is not installed: run 'scripts/windows.sh deps'"
    std_version=$(dpkg-query -W -f='${Version}' rust-web-src) || die "rust-web-src is not installed"
    [ "$compiler" = "$std_version" ] || die "rustc-web $compiler but rust-web-src $std_version: upgrade both"
    say "compiler $($DEB_RUSTC -V), -j$JOBS, output in $WINDOWS_TARGET_DIR"
    # panic_abort: the release profile aborts on panic.
    RUSTC=$DEB_RUSTC RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$WINDOWS_TARGET_DIR \
        $DEB_CARGO build --release --locked -j"$JOBS" --target $TRIPLE \
        -Zbuild-std=std,panic_abort --bins
    local exe=$WINDOWS_TARGET_DIR/$TRIPLE/release/pbrain-hoshi.exe level
    check_imports "$exe"
    mkdir -p bin
    cp "$exe" bin/pbrain-hoshi.exe
    for level in $LEVELS; do cp "$exe" "bin/pbrain-hoshi-$level.exe"; done
    say "built bin/pbrain-hoshi.exe ($(stat -c %s "$exe") bytes) and level copies: $LEVELS"
}

# The .exe must run alone on a bare Windows: it may import system DLLs only, never MinGW's
# runtime (libgcc_s_seh-1.dll, libwinpthread-1.dll, libstdc++-6.dll).
check_imports() {
    local dlls others
    dlls=$(x86_64-w64-mingw32-objdump -p "$1" | sed -n 's/^\tDLL Name: //p')
    say "imports of $(basename "$1"): $(sort -fu <<<"$dlls" | tr "\n" " ")"
    # Windows 10 has bcryptprimitives.dll, but Wine 8.0 (Debian bookworm's, on which Linux
    # users run Piskvork) does not: std imports it for the RandomState of a HashMap.
    ! grep -qix 'bcryptprimitives.dll' <<<"$dlls" ||
        die "$(basename "$1") imports bcryptprimitives.dll (a HashMap with RandomState?) and would not start on Wine 8.0"
    others=$(grep -viE '^(kernel32|ntdll|msvcrt|advapi32|bcrypt|psapi|userenv|ws2_32|api-ms-win-[a-z0-9-]+)\.dll$' <<<"$dlls" || true)
    [ -z "$others" ] || die "$(basename "$1") needs DLLs that Windows does not have: $others"
}

# Drives bin/pbrain-hoshi.exe under Wine from the native side: the raw bytes of a reply, the
# level read from the file name, bench's node count against the native build, the protocol
# transcripts and the robustness test (their harness reads HOSHI_ENGINE), and the match
# runner's memory check.
test_exe() {
    local exe=$PWD/bin/pbrain-hoshi.exe
    [ -x $WINE ] || die "no $WINE: run 'scripts/windows.sh deps test'"
    [ -f "$exe" ] || die "no $exe: run 'make windows'"
    # A prefix of our own, so the run depends on nothing in ~/.wine; skip Mono and Gecko.
    export WINEPREFIX=${WINEPREFIX:-$WINDOWS_TARGET_DIR/wineprefix} WINEDEBUG=-all \
        WINEDLLOVERRIDES="mscoree,mshtml="
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        say "creating the Wine prefix $WINEPREFIX"
        mkdir -p "$(dirname "$WINEPREFIX")"
        timeout 300 wineboot --init >/dev/null 2>&1 || die "wineboot could not create $WINEPREFIX"
        # The registry files are written when the server leaves.
        timeout 60 wineserver --wait
    fi
    # One server for the whole run, so each engine starts in milliseconds, not seconds
    # (exit code 2: one is running already, left by an earlier run in this prefix).
    wineserver --persistent || [ $? = 2 ] || die "wineserver did not start"
    trap 'wineserver --kill' EXIT
    local scratch=$WINDOWS_TARGET_DIR/wine-test
    rm -rf "$scratch" && mkdir -p "$scratch"

    # The raw bytes: lines end in LF alone (no CR), under Wine as on Linux.
    printf 'START 15\r\nBEGIN\r\n' | timeout 60 $WINE "$exe" >"$scratch/smoke.out" ||
        die "the .exe failed under Wine"
    od -c "$scratch/smoke.out" >&2
    ! grep -q $'\r' "$scratch/smoke.out" || die "a CR in the engine's output"
    head -1 "$scratch/smoke.out" | grep -qx OK && tail -1 "$scratch/smoke.out" | grep -Eqx '[0-9]+,[0-9]+' ||
        die "START/BEGIN under Wine did not give OK and a move"
    # Master reports its search in a MESSAGE line; easy, read from the file name, does not.
    printf 'START 15\nBEGIN\n' | timeout 60 $WINE bin/pbrain-hoshi-easy.exe >"$scratch/easy.out"
    [ "$(cat "$scratch/easy.out")" = $'OK\n7,7' ] || die "pbrain-hoshi-easy.exe did not play as easy: $(cat "$scratch/easy.out")"
    say "smoke test and level from the file name: OK"

    # Same search, same tree: the node count must not depend on the system.
    local native=${CARGO_TARGET_DIR:-target}/release/pbrain-hoshi wine_nodes native_nodes
    ${CARGO:-cargo} build --release --locked -q
    native_nodes=$("$native" bench --depth 5 | tail -1)
    wine_nodes=$(timeout 600 $WINE "$exe" bench --depth 5 | tail -1)
    say "bench --depth 5: native: $native_nodes"
    say "bench --depth 5: wine:   $wine_nodes"
    [ "${native_nodes%%nodes,*}" = "${wine_nodes%%nodes,*}" ] || die "bench node counts differ"

    # Every test whose harness starts the engine through tests/common, which reads
    # HOSHI_ENGINE: the harness runs natively, only the engine under Wine. The engine runs
    # under `cmd /c`, whose exit status is the .exe's Windows exit code: the Unix status of
    # the .exe's own process is not, since the wineserver SIGKILLs a Unix process still alive
    # about 0.48 s after its last Windows thread ended (checks 1/64 s apart, doubling), which
    # an engine that had exited with 0 but was starved of CPU under load has missed.
    local winexe="Z:${exe//\//\\}"
    say "protocol transcripts, robustness, scripted-input and Yixin-Board tests against the .exe under Wine"
    wine_tests() {
        HOSHI_ENGINE="$WINE cmd /c $winexe" ${CARGO:-cargo} test --release --locked \
            --test protocol --test robustness --test scripted --test renju_protocol --test yixin \
            2>&1 | tee "$scratch/tests.out"
    }
    # Under load, Wine's cmd can fail to create the engine's process (seen once, in a CI
    # run beside a compile on the other core) and print this line where the engine's
    # first reply should be. Such a run says nothing of the engine, so it runs
    # once more; any other failure stands.
    local no_start='Application could not be started, or no application associated'
    if ! wine_tests; then
        grep -q "$no_start" "$scratch/tests.out" || die "tests against the .exe under Wine"
        say "Wine's cmd could not start the engine; the tests run once more"
        wine_tests || die "tests against the .exe under Wine, run twice"
    fi

    # The match runner's memory check on Windows (GetProcessMemoryInfo): an engine that grabs
    # 64 MiB at its second move, against a limit of 40 MB, must lose on memory every game.
    local faulty=$WINDOWS_TARGET_DIR/$TRIPLE/release/pbrain-faulty.exe
    timeout 300 $WINE "$exe" match --engine "$faulty" --engine "$faulty --fault memory --at 2 --memory-mb 64" \
        --name steady --name greedy --games 2 --size 15 --tc 2000 --max-memory 40000000 --seed 1 \
        >"$scratch/match.out" 2>"$scratch/match.err" || {
        cat "$scratch/match.err" >&2
        die "the match runner failed under Wine"
    }
    cat "$scratch/match.out" >&2
    grep -q '^Faults of greedy: memory 2$' "$scratch/match.out" ||
        die "the runner under Wine did not catch the memory fault"
    ! grep -q 'not enforced' "$scratch/match.err" || die "the runner says memory is not enforced on Windows"
    say "all Windows checks passed"
}

# A Gomocup submission: one pbrain- executable at the zip's root (the judge picks among
# executables by name, so the level copies stay out), a short readme and the licence.
gomocup() {
    local exe=bin/pbrain-hoshi.exe stage=$WINDOWS_TARGET_DIR/gomocup zip=dist/pbrain-hoshi.zip
    [ -f $exe ] || die "no $exe: run 'make windows'"
    local version commit
    version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    rm -rf "$stage" && mkdir -p "$stage" dist
    cp $exe "$stage/"
    sed 's/$/\r/' LICENSE >"$stage/LICENSE.txt"
    sed -e "s/@VERSION@/$version/" -e "s/@COMMIT@/$commit/" scripts/gomocup-readme.txt |
        sed 's/$/\r/' >"$stage/README.txt"
    rm -f "$zip"
    (cd "$stage" && zip -q -X -9 "$OLDPWD/$zip" pbrain-hoshi.exe README.txt LICENSE.txt)
    local size
    size=$(stat -c %s "$zip")
    # Gomocup's limit, above which a submission needs the organisers' approval.
    [ "$size" -le $((8 << 20)) ] || die "$zip is $size bytes, over Gomocup's 8 MB"
    unzip -l "$zip" >&2
    say "wrote $zip ($size bytes)"
}

case ${1:-} in
deps) deps "${2:-}" ;;
build) build ;;
test) test_exe ;;
gomocup) gomocup ;;
*) die "usage: scripts/windows.sh deps [test] | build | test | gomocup" ;;
esac
