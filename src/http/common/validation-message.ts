import type { FastifyError, FastifySchemaValidationError } from 'fastify';

type SchemaErrorDataVar = NonNullable<FastifyError['validationContext']>;

const PLACES: Partial<Record<SchemaErrorDataVar, string>> = {
  querystring: 'query parameter',
  body: 'body field',
  params: 'path parameter',
  headers: 'header',
};

function field(error: FastifySchemaValidationError): string {
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = error.params.missingProperty;
  if (error.keyword === 'required' && typeof missing === 'string') return path ? `${path}.${missing}` : missing;
  return path;
}

function withArticle(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function problem(error: FastifySchemaValidationError, context: SchemaErrorDataVar | undefined): string {
  const { limit, type, format, allowedValues } = error.params;
  // A query value is text, or a list of texts when the name is repeated (?text=a&text=b).
  if (context === 'querystring' && error.keyword === 'type' && type === 'string') return 'is given more than once; send it once';
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${String(limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(limit)} characters`;
    case 'type':
      return `must be ${withArticle(String(type))}`;
    case 'format':
      return `must be a valid ${String(format)}`;
    case 'enum':
      return Array.isArray(allowedValues) ? `must be one of ${allowedValues.join(', ')}` : 'has a value that is not allowed';
    default:
      return error.message ?? 'is not valid';
  }
}

/**
 * Ajv's own wording ("querystring/text must NOT have fewer than 1 characters") names schema
 * internals. Callers get the place and name they used: 'query parameter "text" must not be
 * empty'. Only the first problem is named; fixing it and retrying shows the next.
 */
export function validationMessage(errors: readonly FastifySchemaValidationError[], context: SchemaErrorDataVar | undefined): string {
  const first = errors[0];
  if (!first) return 'Invalid request.';
  const name = field(first);
  const place = context ? PLACES[context] : undefined;
  // No body at all (or a list, a number) where an object is expected: say what to send.
  if (!name && context === 'body' && first.keyword === 'type' && first.params.type === 'object') {
    return 'Invalid request: the body must be a JSON object (Content-Type: application/json); none was sent, or another kind of value.';
  }
  if (!name) return `Invalid request: the ${context === 'body' ? 'body' : (place ?? 'request')} ${problem(first, context)}.`;
  return `Invalid request: ${place ?? 'field'} "${name}" ${problem(first, context)}.`;
}
