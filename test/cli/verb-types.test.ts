import { describe, expectTypeOf, it } from 'vitest';
import type { CallResult } from '../../src/cli/executor.ts';
import type { Jsonify } from '../../src/operator/json.ts';
import type { VerbArgs, VerbName, VerbResult } from '../../src/operator/verbs.ts';

/**
 * The verb registry is typed end to end: these assertions are checked by `npm run typecheck`
 * (tsc covers test/), and fail it when a verb's result or arguments become `unknown` again or
 * when the CLI's view of a result stops being its JSON form. At run time they pass trivially.
 */

/** The verbs whose result, or whose JSON form, is `unknown`: none. */
type UnknownResults = { [N in VerbName]: unknown extends VerbResult<N> ? N : unknown extends CallResult<N> ? N : never }[VerbName];
/** The verbs whose arguments are `unknown` or `any`: none. */
type UnknownArgs = { [N in VerbName]: unknown extends VerbArgs<N> ? N : never }[VerbName];

describe('the verb registry', () => {
  it('types every verb: no result and no arguments are unknown', () => {
    // The names are a closed list, not any string (a `Record<string, Verb>` registry would lose every type below).
    expectTypeOf<string extends VerbName ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<UnknownResults>().toBeNever();
    expectTypeOf<UnknownArgs>().toBeNever();
    expectTypeOf<'tokens.list'>().toExtend<VerbName>();
    // @ts-expect-error a verb that does not exist has no name in the registry
    expectTypeOf<'tokens.frobnicate'>().toExtend<VerbName>();
  });

  it('gives the CLI what the admin socket sends: JSON, with a Date as a string', () => {
    expectTypeOf<CallResult<'tokens.revoke'>>().toHaveProperty('already_revoked').toEqualTypeOf<boolean>();
    expectTypeOf<CallResult<'tokens.list'>>().toEqualTypeOf<VerbResult<'tokens.list'>>();
    expectTypeOf<CallResult<'users.disable'>['revoked_tokens']>().toEqualTypeOf<number>();
    expectTypeOf<CallResult<'webhooks.test'>>().toEqualTypeOf<{ delivery_id: string; sent_by: string }>();
    expectTypeOf<CallResult<'people.import'>['column_hints']>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<CallResult<'db.backup'>['bytes']>().toEqualTypeOf<number>();
    expectTypeOf<VerbArgs<'tokens.create'>['kind']>().toEqualTypeOf<'enterprise' | 'assessment' | 'connect'>();
  });

  it('turns a value into its JSON form (Jsonify)', () => {
    expectTypeOf<Jsonify<{ at: Date; when: Date | null; n: number; note?: string; run: () => void }>>().toEqualTypeOf<{ at: string; when: string | null; n: number; note?: string }>();
    expectTypeOf<Jsonify<{ list: (string | undefined)[]; nested: { at: Date }[] }>>().toEqualTypeOf<{ list: (string | null)[]; nested: { at: string }[] }>();
    expectTypeOf<Jsonify<Record<string, unknown>>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Jsonify<unknown>>().toBeUnknown();
    // @ts-expect-error a Date arrives as a string, never as a Date
    expectTypeOf<Jsonify<{ at: Date }>>().toEqualTypeOf<{ at: Date }>();
  });
});
