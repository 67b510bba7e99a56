import AjvCompiler from '@fastify/ajv-compiler';

const fromPool = AjvCompiler();

/** Fastify hands its validator compiler a route definition, though the published types say "schema". */
function isBodyPart(route: unknown): boolean {
  return typeof route === 'object' && route !== null && 'httpPart' in route && route.httpPart === 'body';
}

/**
 * Fastify's validator with one change: request bodies are not type-coerced.
 *
 * Query strings, path parameters and headers arrive as text, so coercing them to the
 * schema's numbers and booleans is what a caller expects. A JSON body already carries
 * types, and coercing it hides mistakes: `{"text": 42}` would be analysed as the text "42"
 * instead of being refused. Form bodies are all strings, which string fields accept as is.
 */
export const buildValidator: AjvCompiler.BuildCompilerFromPool = (externalSchemas, options) => {
  const coercing = fromPool(externalSchemas, options);
  // JSON Type Definition schemas (not used here) have no coercion to turn off.
  if (options?.mode === 'JTD') return coercing;
  const strict = fromPool(externalSchemas, { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } });
  return (route, meta) => (isBodyPart(route) ? strict(route, meta) : coercing(route, meta));
};
