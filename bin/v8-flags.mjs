// Plain Node, loaded by bin/rapport.mjs before anything else.
import v8 from 'node:v8';

/**
 * Commands that read or change a few rows and end: the embedded database's WebAssembly runs for
 * well under a second in them, and V8's optimising compiler, which it otherwise starts on the
 * hot functions in the background, costs more CPU than it can save there (`rapport tokens
 * list`: ~3.5 s of CPU with it, ~2 s without). `serve`, `worker`, `import`, `profiles
 * recompute` and `db backup|restore` may run for minutes over many rows: they keep V8's defaults.
 */
const SHORT_COMMANDS = new Set(['tokens', 'users', 'webhooks', 'people']);

/** Whether `rapport ARGV` runs a short command (the first argument after the script names it). */
export function isShortCommand(argv) {
  return SHORT_COMMANDS.has(argv[2] ?? '');
}

/**
 * WebAssembly with V8's baseline compiler only (`--liftoff-only`) for a short command: only the
 * machine code V8 picks changes, not what the program does. Set before PGlite compiles its
 * module, so it applies to that compilation.
 */
export function tuneForCommand(argv) {
  if (isShortCommand(argv)) v8.setFlagsFromString('--liftoff-only');
}
