import { errorOf } from './errors.ts';

/** What openapi-fetch answers for one call. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The call's data, or its RapportError: every method of the client goes through this. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(response, error);
  return data as T;
}

/** Options every group's client takes. */
export interface ClientOptions {
  /** Where the group's API is: {base_url} for Enterprise and Assessment, {connect_url} for Connect (e.g. http://localhost:3001). */
  baseUrl: string;
  /** The token, as the service's operator or dashboard issued it. */
  token: string;
  /** A fetch of your own (a proxy agent, tests); the global one otherwise. */
  fetch?: (input: Request) => Promise<Response>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
