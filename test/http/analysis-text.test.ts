import { describe, expect, it } from 'vitest';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { useEnterpriseService } from '../helpers/service.ts';

const { service, auth } = useEnterpriseService();

const NO_PERSONALITY = { data: null, message: 'Content did not yield a personality' };
const SPANISH =
  'El equipo trabaja todos los días con los clientes para que los proyectos salgan bien y a tiempo. ' +
  'Cada mañana revisamos juntos las tareas pendientes, hablamos de los problemas que surgieron la semana pasada y ' +
  'decidimos quién se encarga de cada parte. Me gusta mucho organizar reuniones con mis amigos después del trabajo, ' +
  'porque siempre hay algo nuevo que contar y nos reímos bastante. Cuando viajo prefiero conocer a la gente del lugar, ' +
  'probar la comida típica y caminar por los barrios antiguos sin prisa, aunque a veces me pierdo por completo.';

describe('GET /v1/analysis/text (A2)', () => {
  it('answers A2 for enough text, with an absolute DISC map link and evidence from the text', async () => {
    const response = await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(OUTGOING_TEXT)}`, headers: auth });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.personalities.disc_type).toMatch(/^(IS|Is|I|Id|DI|Di|D|Dc|CD|Cd|C|Cs|SC|Sc|S|Si)$/);
    expect(data.images.disc_map).toMatch(/^http:\/\/localhost(:\d+)?\/images\/disc-map\/-?\d\.\d{3}_-?\d\.\d{3}\.svg$/);
    for (const section of ['behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling', 'working_together']) {
      expect(data.content[section].phrase.length).toBeGreaterThanOrEqual(3);
    }
    expect(data.content.profile.overview.length).toBeGreaterThanOrEqual(1);
    expect(data.traits.extraversion.score).toBeGreaterThan(-1);
    const lower = OUTGOING_TEXT.toLowerCase();
    const terms = Object.values(data.evidence as Record<string, { term: string }[]>).flat();
    expect(terms.length).toBeGreaterThan(0);
    for (const { term } of terms) expect(lower).toContain(term.toLowerCase().split(' ')[0]);

    const image = await service.base.inject({ url: new URL(data.images.disc_map).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/image\/svg\+xml/);
  });

  it('places an outgoing writer higher on the active axis than a reserved one', async () => {
    const [outgoing, reserved] = await Promise.all(
      [OUTGOING_TEXT, RESERVED_TEXT].map(async (text) => {
        const response = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } });
        return response.json().data.traits.extraversion.score as number;
      }),
    );
    expect(outgoing).toBeGreaterThan(reserved ?? 0);
  });

  it.each([
    ['too few words', 'Hello there, nice to meet you.', 'text_too_short'],
    ['one word repeated', 'great '.repeat(300), 'text_junk'],
    // Plenty written, none of it prose: junk, not too short.
    ['numbers only', '12 345 6789 '.repeat(80), 'text_junk'],
    ['markup only', '<div><span></span><br/></div>'.repeat(80), 'text_junk'],
    ['another language', SPANISH, 'text_unsupported_language'],
  ])('%s yields the no-personality answer, with the reason beside it', async (_label, text, reason) => {
    const response = await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...NO_PERSONALITY, reason });
  });

  it('without text, or with an empty one, is a 400 naming the parameter in plain words', async () => {
    const missing = await service.base.inject({ url: '/v1/analysis/text', headers: auth });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'bad_request', message: 'Invalid request: query parameter "text" is required.' });
    const twice = await service.base.inject({ url: '/v1/analysis/text?text=one&text=two', headers: auth });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toBe('Invalid request: query parameter "text" is given more than once; send it once.');
    const empty = await service.base.inject({ url: '/v1/analysis/text?text=', headers: auth });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Invalid request: query parameter "text" must not be empty.');
    const blank = await service.base.inject({ url: '/v1/analysis/text?text=%20%0A%09', headers: auth });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe('The text is empty: it holds nothing but whitespace.');
    const blankBody = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: ' \n ' } });
    expect(blankBody.statusCode).toBe(400);
    expect(blankBody.json().error.message).toBe('The text is empty: it holds nothing but whitespace.');
  });
});

describe('POST /v1/analysis/text (A3) accepts every encoding', () => {
  const expectA3 = (body: { data: Record<string, unknown> }) => {
    const { data } = body as { data: { personality: { disc_type: string }; content: Record<string, string[]> } };
    expect(data.personality.disc_type).toMatch(/^[DISC][DISCdisc]?$/);
    for (const key of ['behavior', 'motivations', 'drains', 'communication', 'meeting']) expect(data.content[key]?.length).toBeGreaterThanOrEqual(3);
  };

  it('JSON', async () => {
    const response = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: OUTGOING_TEXT } });
    expect(response.statusCode).toBe(200);
    expectA3(response.json());
  });

  it('says when the result is tentative (A3 has no overview to say so): under the profile\'s own threshold', async () => {
    const analyse = async (text: string) => (await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } })).json().data as { confidence: number; tentative: boolean };
    const short = await analyse(OUTGOING_TEXT.split(/\s+/).slice(0, 60).join(' '));
    const long = await analyse([OUTGOING_TEXT, OUTGOING_TEXT.split('. ').reverse().join('. '), OUTGOING_TEXT.toUpperCase()].join('\n\n'));
    expect(short.confidence).toBeLessThan(15);
    expect(short.tentative).toBe(true);
    expect(long.confidence).toBeGreaterThanOrEqual(15);
    expect(long.tentative).toBe(false);
  });

  it('form-urlencoded', async () => {
    const response = await service.base.inject({
      method: 'POST',
      url: '/v1/analysis/text',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `text=${encodeURIComponent(OUTGOING_TEXT)}`,
    });
    expect(response.statusCode).toBe(200);
    expectA3(response.json());
  });

  it('multipart field', async () => {
    const form = new FormData();
    form.append('text', OUTGOING_TEXT);
    const request = new Request('http://x/', { method: 'POST', body: form });
    const response = await service.base.inject({
      method: 'POST',
      url: '/v1/analysis/text',
      headers: { ...auth, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(200);
    expectA3(response.json());
  });

  it('plain text body and query parameter', async () => {
    const plain = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...auth, 'content-type': 'text/plain' }, payload: OUTGOING_TEXT });
    expect(plain.statusCode).toBe(200);
    expectA3(plain.json());
    const query = await service.base.inject({ method: 'POST', url: `/v1/analysis/text?text=${encodeURIComponent(OUTGOING_TEXT)}`, headers: auth });
    expect(query.statusCode).toBe(200);
    expect(query.json().data.personality.disc_type).toBe(plain.json().data.personality.disc_type);
  });

  it('too little text is the no-personality answer; text over the limit is a 413', async () => {
    const short = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: 'Just a few words.' } });
    expect(short.json()).toEqual({ ...NO_PERSONALITY, reason: 'text_too_short' });
    const long = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: 'word '.repeat(30_000) } });
    expect(long.statusCode).toBe(413);
    expect(long.json().error.code).toBe('payload_too_large');
  });
});

describe('bad requests get the one error body', () => {
  it('a JSON text that is not a string is a 400, not analysed as its digits', async () => {
    for (const text of [42, true, ['I love parties and talking with friends.'], { words: 'hello' }]) {
      const response = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } });
      expect(response.statusCode, JSON.stringify(text)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'bad_request', message: 'Invalid request: body field "text" must be a string.' });
    }
    // Query strings are text by nature: a number there is still read as the text it spells.
    const query = await service.base.inject({ method: 'POST', url: '/v1/analysis/text?text=42', headers: auth });
    expect(query.json()).toEqual({ ...NO_PERSONALITY, reason: 'text_too_short' });
  });

  it('malformed JSON is 400, an unknown content type 415, an oversized body 413', async () => {
    const malformed = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"text": ' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ code: 'bad_request', message: 'The body is not valid JSON.' });

    const xml = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...auth, 'content-type': 'application/xml' }, payload: '<text>hi</text>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error.code).toBe('unsupported_media_type');

    const huge = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: 'x'.repeat(13 * 1024 * 1024) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('payload_too_large');
    expect(huge.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
