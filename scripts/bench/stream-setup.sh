# Sourced (with $work and $touchd set) by the scripts that run the real daemon on the daemon
# benchmarks' stream under valgrind (daemon-instructions.sh, ../hot-code.sh): builds the player and
# the subscriber into $work, writes the stream ($work/stream.evemu) and its layout
# ($work/layout.toml), and a copy of the daemon valgrind can read ($work/touchd).
gcc -O2 -Wall -o "$work/bench-player" scripts/bench/guest/bench-player.c -lm
gcc -O2 -Wall -o "$work/bench-subscriber" scripts/bench/guest/bench-subscriber.c -lm
"$work/bench-player" --evemu > "$work/stream.evemu"
bash scripts/bench/stream-layout.sh > "$work/layout.toml"
# Valgrind cannot read Swift's debug information: a copy without it (the symbols stay).
strip --strip-debug -o "$work/touchd" "$touchd"
