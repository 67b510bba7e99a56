import AjvCompiler from '@fastify/ajv-compiler';
import type { ReadyTask } from './on-ready.ts';

const fromPool = AjvCompiler();

/** Fastify hands its validator compiler a route definition, though the published types say "schema". */
function isBodyPart(route: unknown): boolean {
  return typeof route === 'object' && route !== null && 'httpPart' in route && route.httpPart === 'body';
}

/** A route part's compiled validator, as Ajv makes it (a function carrying its schema and last errors). */
type Validator = ReturnType<ReturnType<AjvCompiler.BuildCompilerFromPool>>;

/**
 * A validator compiled on its first use. Compiling every route's schemas as the app is built was
 * ~0.7 s of CPU a service start (and of every test that builds an app), for routes most
 * processes never see asked: each is compiled now when its route is first asked, a few
 * milliseconds once. Fastify reads `errors` (the last call's) and `schemaEnv` (whether to pass
 * the parent object) from the validator itself: both are the compiled one's, so a request is
 * validated, coerced and answered exactly as before.
 */
function compiledOnFirstUse(compile: () => Validator, compiles: ReadyTask[]): Validator {
  let compiled: Validator | null = null;
  const get = (): Validator => (compiled ??= compile());
  const validate = function (this: unknown, ...args: Parameters<Validator>) {
    return get().apply(this, args);
  };
  // Every property an Ajv validator carries, read from the compiled one.
  for (const name of ['errors', 'schema', 'schemaEnv', 'evaluated', 'source'] as const) Object.defineProperty(validate, name, { get: () => get()[name] });
  compiles.push(() => void get());
  // The properties are defined just above; TypeScript cannot follow defineProperty.
  return validate as Validator;
}

/**
 * Fastify's validator with two changes. Request bodies are not type-coerced: query strings, path
 * parameters and headers arrive as text, so coercing them to the schema's numbers and booleans is
 * what a caller expects; a JSON body already carries types, and coercing it hides mistakes:
 * `{"text": 42}` would be analysed as the text "42" instead of being refused. Form bodies are all
 * strings, which string fields accept as is. And each validator is compiled on first use
 * (`compiledOnFirstUse`); its compile is queued in `compiles`, which the app runs as it becomes
 * ready (on-ready.ts) where it must compile them all as it starts (the schema check in the tests).
 */
export function validatorFactory(compiles: ReadyTask[]): AjvCompiler.BuildCompilerFromPool {
  return (externalSchemas, options) => {
    // JSON Type Definition schemas (not used here) have no coercion to turn off.
    if (options?.mode === 'JTD') return fromPool(externalSchemas, options);
    // Each Ajv instance compiles the JSON Schema meta-schema as it is made (~50–150 ms of CPU),
    // and Fastify asks for two per encapsulated group as routes are declared: made on the first
    // compile instead, a process that never validates a request (a CLI verb's app, a process
    // asked only /healthz) makes none.
    let coercing: ReturnType<typeof fromPool> | null = null;
    let strict: ReturnType<typeof fromPool> | null = null;
    const compilerFor = (route: unknown) =>
      isBodyPart(route)
        ? (strict ??= fromPool(externalSchemas, { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } }))
        : (coercing ??= fromPool(externalSchemas, options));
    return (route, meta) => compiledOnFirstUse(() => compilerFor(route)(route, meta), compiles);
  };
}
