import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypes, GENERATED_DIR } from '../../scripts/client-types.ts';
import { documentOf } from '../../scripts/openapi-documents.ts';
import { createTestService } from '../helpers/service.ts';

describe("the typed client's generated types", () => {
  it('are what regenerating them from the service\'s OpenAPI documents gives (run `npm run client:types` after changing a route)', { timeout: 120_000 }, async () => {
    // The service's own apps, as `npm run client:types` builds them (on the test database's template).
    const service = await createTestService();
    const documents = { base: await documentOf(service.base), connect: await documentOf(service.connect) };
    await service.close();
    const files = await clientTypes(documents);
    expect(Object.keys(files).sort()).toEqual(['base.ts', 'connect.ts']);
    for (const [file, text] of Object.entries(files)) {
      expect(readFileSync(new URL(file, GENERATED_DIR), 'utf8'), `clients/typescript/src/generated/${file} is out of date: npm run client:types`).toBe(text);
    }
    // The parts a client leans on are there: readable operation ids, typed error codes, the event bodies.
    expect(files['connect.ts']).toContain('startProfileSearch: {');
    expect(files['connect.ts']).toContain('ConnectSearchFinishedEvent: {');
    expect(files['base.ts']).toMatch(/code: "bad_request" \| "unauthorized"/);
    expect(files['base.ts']).not.toContain('"/dashboard');
  });
});
