import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { MESSAGE_MAX_CHARS } from '../../src/content/connect/messaging.ts';
import { OUTGOING_TEXT, RESERVED_TEXT, SHORT_OUTGOING_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';

const lines: string[] = [];
const service = useTestService({ LOG_LEVEL: 'info' }, { logs: { write: (line: string) => void lines.push(line) } });
let org: { 'x-org-token': string };
let otherOrg: { 'x-org-token': string };

async function addPerson(record: Record<string, unknown>): Promise<string> {
  const validated = validatePersonRecord(record);
  if (!validated.ok) throw new Error(validated.reason);
  const { person } = await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
  if (!person) throw new Error('not stored');
  return person.id;
}

beforeAll(async () => {
  org = { 'x-org-token': (await service.token('connect')).secret };
  otherOrg = { 'x-org-token': (await service.token('connect')).secret };
  await addPerson({ first_name: 'Robert', last_name: 'Quillfeather', email: 'robert.quillfeather@example.com', company_name: 'Acme', texts: [{ type: 'various', text: SHORT_OUTGOING_TEXT }] });
  await addPerson({ first_name: 'Hélène', last_name: 'Marchetti', email: 'helene.marchetti@example.com', texts: [{ type: 'various', text: RESERVED_TEXT }] });
  await addPerson({ first_name: 'Sam', last_name: 'Lindqvist', email: 'sam.l1@example.com', company_name: 'Northwind', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  await addPerson({ first_name: 'Sam', last_name: 'Lindqvist', email: 'sam.l2@example.com', company_name: 'Contoso', texts: [{ type: 'various', text: RESERVED_TEXT }] });
  const tested = await addPerson({ first_name: 'Tess', last_name: 'Okafor', email: 'tess.okafor@example.com', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  // A person who took the personality test: their measured estimate is stored and verified.
  const assessment = {
    scores: { extraversion: -0.6, agreeableness: -0.5, conscientiousness: 0.4, openness: 0.1, neuroticism: 0 },
    confidence: { extraversion: 0.95, agreeableness: 0.95, conscientiousness: 0.9, openness: 0.9, neuroticism: 0.9 },
    source: 'assessment',
    modelVersion: 'assessment-v1',
    wordCount: 0,
  };
  await service.ctx.db.query("UPDATE people SET verified = true, source = 'assessment', estimate = $2 WHERE id = $1", [tested, JSON.stringify(assessment)]);
});

const search = (payload: unknown, headers: Record<string, string> = org) =>
  service.connect.inject({ method: 'POST', url: '/v1/profiles', headers, payload: payload as Record<string, unknown> });
const searchAsync = (payload: unknown, headers: Record<string, string> = org) =>
  service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers, payload: payload as Record<string, unknown> });

async function poll(id: string, headers: Record<string, string> = org) {
  for (let i = 0; i < 150; i++) {
    const response = await service.connect.inject({ url: `/v1/profiles/results/${id}`, headers });
    if (response.statusCode !== 200 || response.json().status !== 'processing') return response;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('still processing after 30 s');
}

async function completedId(payload: Record<string, unknown>): Promise<string> {
  const response = await search(payload);
  expect(response.statusCode).toBe(200);
  return response.json().request_id as string;
}

describe('POST /v1/profiles (sync)', () => {
  it('finds a person by email and answers C2', async () => {
    const response = await search({ email: 'Robert.Quillfeather@EXAMPLE.com' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.request_id).toMatch(/^pr_/);
    expect(body.info).toMatchObject({ first_name: 'Robert', last_name: 'Quillfeather', has_assessment: false });
    expect(body.info.disc_scores.type).toMatch(/^[DISC]{1,2}$|^[A-Z][a-z]?$/);
    expect(Number.isInteger(body.info.disc_scores.confidence)).toBe(true);
    expect(body.info.disc_scores.confidence).toBeGreaterThan(0);
    expect(body.info.disc_scores.confidence).toBeLessThan(90);
    expect(body.info.disc_image).toMatch(/^http:\/\/localhost(:\d+)?\/images\/disc-map\/.+\.svg$/);
    for (const key of ['emailing', 'communication', 'motivations', 'behavior', 'building_trust', 'selling', 'working_together']) {
      expect(typeof body.recommendations[key].overview).toBe('string');
      expect(body.recommendations[key].phrases.length).toBeGreaterThan(0);
    }
    expect(body.recommendations.qualities.length).toBeGreaterThan(0);
    expect(JSON.stringify(body.recommendations)).toContain('Robert');
  });

  it('finds a person by nickname, without accents, and with extra headers a client SDK sends', async () => {
    const bob = await search({ first_name: 'bob', last_name: 'QUILLFEATHER' }, { ...org, 'x-sdk-version': '2.1.0', 'user-agent': 'connect-client/2' });
    expect(bob.statusCode).toBe(200);
    expect(bob.json().info.first_name).toBe('Robert');
    const helene = await search({ first_name: 'Helene', last_name: 'Marchetti' });
    expect(helene.json().info.first_name).toBe('Hélène');
    // Decomposed accents (e + U+0301), as a macOS keyboard or a copy from a PDF may send them.
    const decomposed = await search({ first_name: 'Hélène'.normalize('NFD'), last_name: 'Marchetti' });
    expect(decomposed.statusCode).toBe(200);
    expect(decomposed.json().info.first_name).toBe('Hélène');
  });

  it('two people with the same name: 404 unless the company tells them apart', async () => {
    const ambiguous = await search({ first_name: 'Sam', last_name: 'Lindqvist' });
    expect(ambiguous.statusCode).toBe(404);
    expect(ambiguous.json().error.code).toBe('not_found');
    const narrowed = await search({ first_name: 'Sam', last_name: 'Lindqvist', company_name: 'Contoso Ltd' });
    expect(narrowed.statusCode).toBe(200);
    const other = await search({ first_name: 'Sam', last_name: 'Lindqvist', company_name: 'Northwind' });
    expect(other.json().info.disc_scores.type).not.toBe(narrowed.json().info.disc_scores.type);
    // Advice for the two namesakes tells them apart rather than saying "Sam needs Sam".
    const pair = await service.connect.inject({ method: 'POST', url: `/v1/relationships/${other.json().request_id}/${narrowed.json().request_id}`, headers: org });
    expect(pair.statusCode).toBe(200);
    const text = JSON.stringify(pair.json());
    expect(text).toContain('the first Sam');
    expect(text).toContain('the second Sam');
    expect(text).not.toMatch(/Sam (and|needs|wants) Sam/);
  });

  it('nobody found is a 404; a different given name is nobody; a malformed email is a 400', async () => {
    expect((await search({ email: 'nobody@example.com' })).statusCode).toBe(404);
    expect((await search({ first_name: 'Roberta', last_name: 'Quill' })).statusCode).toBe(404);
    for (const payload of [{ email: 'robert.quillfeather' }, { email: 'robert@', first_name: 'Robert', last_name: 'Quillfeather' }]) {
      const malformed = await search(payload);
      expect([malformed.statusCode, malformed.json().error.message]).toEqual([400, 'The email given is not a valid email address (like name@example.com).']);
    }
  });

  it('a tested person: has_assessment, confidence 90 or more, and a text sample does not move them', async () => {
    const plain = (await search({ email: 'tess.okafor@example.com' })).json();
    expect(plain.info.has_assessment).toBe(true);
    expect(plain.info.disc_scores.confidence).toBeGreaterThanOrEqual(90);
    const withText = (await search({ email: 'tess.okafor@example.com', text_sample: OUTGOING_TEXT, text_type: 'email' })).json();
    expect(withText.info.disc_scores).toEqual(plain.info.disc_scores);
  });

  it('a text sample raises the confidence of a text-based profile', async () => {
    const plain = (await search({ email: 'helene.marchetti@example.com' })).json();
    const more = (await search({ email: 'helene.marchetti@example.com', text_sample: RESERVED_TEXT, text_type: 'various' })).json();
    expect(more.info.disc_scores.confidence).toBeGreaterThan(plain.info.disc_scores.confidence);
  });

  it('refuses what is not a search: 400 naming what is missing or wrong', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /no search criteria/],
      [{ first_name: 'Robert' }, /"last_name" is missing/],
      [{ last_name: 'Quillfeather', company_name: 'Acme' }, /"first_name" is missing/],
      [{ text_sample: OUTGOING_TEXT, text_type: 'email' }, /Not enough to search by: a "text_sample" alone is searched only asynchronously \(POST \/v1\/profiles\/async\)/],
      [{ email: 'a@b.co', text_sample: OUTGOING_TEXT }, /needs its "text_type"/],
      [{ email: 'a@b.co', text_sample: OUTGOING_TEXT, text_type: 'tweet' }, /"text_type" must be one of email, various, bio, resume/],
      [{ first_name: 5, last_name: 'X' }, /first_name/],
      [{ email: ['a@b.co'] }, /email/],
    ];
    for (const [payload, message] of cases) {
      const response = await search(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    const malformed = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...org, 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(malformed.statusCode).toBe(400);
    const huge = await search({ email: 'a@b.co', text_sample: 'word '.repeat(25_000), text_type: 'bio' });
    expect(huge.statusCode).toBe(413);
  });

  it('needs a connect token', async () => {
    expect((await search({ email: 'robert.quillfeather@example.com' }, {})).statusCode).toBe(401);
    const enterprise = (await service.token('enterprise')).secret;
    expect((await search({ email: 'robert.quillfeather@example.com' }, { 'x-org-token': enterprise })).statusCode).toBe(401);
  });
});

describe('async search, results, and the routes that take request ids', () => {
  it('a client-like flow: start, poll every 200 ms, then relationship, message check and emails', async () => {
    const started = await searchAsync({ first_name: 'Robert', last_name: 'Quillfeather', text_sample: OUTGOING_TEXT, text_type: 'email' });
    expect(started.statusCode).toBe(202);
    const { request_id: one } = started.json();
    expect(typeof one).toBe('string');
    const result = await poll(one);
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ status: 'complete', request_id: one, info: { first_name: 'Robert' } });
    expect(result.json().recommendations.selling.phrases.length).toBeGreaterThan(0);

    const two = await completedId({ email: 'helene.marchetti@example.com' });
    for (const method of ['GET', 'POST'] as const) {
      const relationship = await service.connect.inject({ method, url: `/v1/relationships/${one}/${two}`, headers: org });
      expect(relationship.statusCode).toBe(200);
      const body = relationship.json();
      expect(typeof body.overview).toBe('string');
      for (const key of ['change', 'communication', 'conflict', 'feedback', 'group', 'instruct', 'motivate', 'personal', 'stress', 'work']) {
        expect(Array.isArray(body[key].phrases)).toBe(true);
      }
      expect(JSON.stringify(body)).toMatch(/Robert/);
      expect(JSON.stringify(body)).toMatch(/H(é|&eacute;|&#233;)l(è|&egrave;|&#232;)ne/);
    }

    const text = 'hey!!! 😀 I think maybe we could possibly try our amazing new product, it is the best in the world!!! Café soon?';
    for (const method of ['GET', 'POST'] as const) {
      const message = await service.connect.inject({ method, url: `/v1/messaging/${one}/${two}`, headers: { ...org, 'content-type': 'application/json' }, payload: JSON.stringify({ text }) });
      expect(message.statusCode, message.body).toBe(200);
      const recommendations = message.json() as Array<{ start: number; end: number; recommendation: string }>;
      expect(recommendations.length).toBeGreaterThan(0);
      for (const r of recommendations) {
        expect(r.start).toBeGreaterThanOrEqual(0);
        expect(r.end).toBeLessThanOrEqual(text.length);
        expect(r.start).toBeLessThanOrEqual(r.end);
        expect(r.recommendation.length).toBeGreaterThan(0);
      }
    }
    const byQuery = await service.connect.inject({ url: `/v1/messaging/${one}/${two}?text=${encodeURIComponent(text)}`, headers: org });
    expect(byQuery.statusCode).toBe(200);

    for (const [method, url] of [['POST', `/v1/emails/${two}`], ['GET', `/v1/emails/${two}`], ['GET', `/v1/email/${two}`]] as const) {
      const emails = await service.connect.inject({ method, url, headers: org });
      expect(emails.statusCode).toBe(200);
      const list = emails.json() as Array<{ label: string; description: string; text: string }>;
      expect(list.length).toBeGreaterThanOrEqual(3);
      expect(list[0]?.text).toContain('<br>');
      expect(list.some((e) => e.text.includes('[Your name]'))).toBe(true);
    }
  });

  it('messaging refuses an empty text (400) and one over the limit (413)', async () => {
    const one = await completedId({ email: 'robert.quillfeather@example.com' });
    const two = await completedId({ email: 'helene.marchetti@example.com' });
    const send = (payload: string) => service.connect.inject({ method: 'POST', url: `/v1/messaging/${one}/${two}`, headers: { ...org, 'content-type': 'application/json' }, payload });
    expect((await send(JSON.stringify({ text: '   ' }))).statusCode).toBe(400);
    expect((await send(JSON.stringify({}))).statusCode).toBe(400);
    expect((await send(JSON.stringify({ text: 'a'.repeat(MESSAGE_MAX_CHARS + 1) }))).statusCode).toBe(413);
    const noBody = await service.connect.inject({ method: 'GET', url: `/v1/messaging/${one}/${two}`, headers: org });
    expect(noBody.statusCode).toBe(400);
  });

  it('messaging points at what a reader would: every push, each hedge, a wrong name; no figure asked of small talk', async () => {
    const one = await completedId({ email: 'robert.quillfeather@example.com' });
    const two = await completedId({ email: 'helene.marchetti@example.com' });
    const check = async (text: string) => {
      const response = await service.connect.inject({ method: 'POST', url: `/v1/messaging/${one}/${two}`, headers: { ...org, 'content-type': 'application/json' }, payload: JSON.stringify({ text }) });
      expect(response.statusCode).toBe(200);
      return (response.json() as Array<{ start: number; end: number; recommendation: string }>).map((r) => ({ words: text.slice(r.start, r.end), recommendation: r.recommendation }));
    };
    const pushy = await check(
      "Hi Helene,\n\nGreat chatting at the expo. I've booked a demo for you on Thursday at 2pm. Our Q3 offer expires today, and after that the price goes up 30%. Don't overthink it!\n\nBest,\nRobert",
    );
    const words = pushy.map((r) => r.words);
    for (const push of ["I've booked a demo for you", 'offer expires today', 'price goes up 30%', "Don't overthink it"]) expect(words).toContain(push);
    expect(pushy.find((r) => r.words === 'Helene')).toBeUndefined();

    const hedged = await check('Hi Hélène, maybe you have time this week? Maybe Thursday? It is maybe 10 pages, so maybe an hour. If not, maybe next week works.');
    expect(hedged.filter((r) => r.words.toLowerCase() === 'maybe')).toHaveLength(5);

    const named = await check("Hi Claire, the taco truck at Friday's lunch was amazing. Could we book them again for the July offsite?");
    expect(named.find((r) => r.words === 'Claire')?.recommendation).toMatch(/this message is for H(é|&eacute;|&#233;)l(è|&egrave;|&#232;)ne/);
    expect(named.find((r) => r.words === 'amazing')).toBeUndefined();
  });

  it('the text alone makes the profile when nobody matches (async third criterion)', async () => {
    const started = await searchAsync({ text_sample: RESERVED_TEXT, text_type: 'various' });
    expect(started.statusCode).toBe(202);
    const result = await poll(started.json().request_id);
    expect(result.json()).toMatchObject({ status: 'complete', info: { has_assessment: false } });
    expect(result.json().info.first_name).toBeUndefined();
  });

  it('nobody found and no usable text: the result is a 404', async () => {
    const started = await searchAsync({ first_name: 'Nobody', last_name: 'Atall', text_sample: 'Too short to read.', text_type: 'email' });
    const result = await poll(started.json().request_id);
    expect(result.statusCode).toBe(404);
    expect(result.json().error.message).toBe('No profile was found for this search.');
  });

  it('a relationship needs two different people: the same id twice, or two searches that found one person, is a 400', async () => {
    const byEmail = await completedId({ email: 'robert.quillfeather@example.com' });
    const byName = await completedId({ first_name: 'Bob', last_name: 'Quillfeather' });
    const other = await completedId({ email: 'helene.marchetti@example.com' });
    for (const [one, two] of [[byEmail, byEmail], [byEmail, byName]]) {
      const response = await service.connect.inject({ method: 'POST', url: `/v1/relationships/${one}/${two}`, headers: org });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/same person/);
    }
    expect((await service.connect.inject({ method: 'POST', url: `/v1/relationships/${byName}/${other}`, headers: org })).statusCode).toBe(200);
  });

  it('relationship advice hedges what it says of a person placed on a short text, and keeps a tested person firm', async () => {
    // Robert rests on 100 words (a tentative placement: his C2 overview says so); Tess took the test.
    const robert = await completedId({ email: 'robert.quillfeather@example.com' });
    const tess = await completedId({ email: 'tess.okafor@example.com' });
    const profile = await service.connect.inject({ url: `/v1/profiles/results/${robert}`, headers: org });
    expect(profile.json().recommendations.overview).toMatch(/tentative/);
    const response = await service.connect.inject({ method: 'POST', url: `/v1/relationships/${tess}/${robert}`, headers: org });
    expect(response.statusCode).toBe(200);
    const { overview } = response.json() as { overview: string };
    expect(overview).toContain('Tess is reserved, precise and sceptical; Robert may be the <b>opposite</b>');
    expect(overview).toContain('If Robert is as lively as their writing suggests');
    expect(overview).toContain("There is not much of Robert's writing to go on");
    expect(overview).not.toMatch(/have <b>opposite styles<\/b>|Tess may|Tess's writing/);
  });

  it('relationship topics hedge what they say of a person placed on a short text, keep the advice, and keep what a tested person needs firm', async () => {
    // Robert rests on 100 words (tentative, an I); Tess took the test (a C).
    const robert = await completedId({ email: 'robert.quillfeather@example.com' });
    const tess = await completedId({ email: 'tess.okafor@example.com' });
    const response = await service.connect.inject({ method: 'POST', url: `/v1/relationships/${tess}/${robert}`, headers: org });
    expect(response.statusCode).toBe(200);
    const body = response.json() as Record<string, { phrases: string[] } | string>;
    const topics = ['change', 'communication', 'conflict', 'feedback', 'group', 'instruct', 'motivate', 'personal', 'stress', 'work'];
    const phrases = topics.flatMap((key) => (body[key] as { phrases: string[] }).phrases);
    const all = phrases.join(' ');
    expect(all).toContain('Robert may take conflict personally at first; Tess should separate the issue from the relationship and say so in as many words.');
    expect(all).toContain('public correction is likely to sting Robert for a long time');
    expect(all).not.toMatch(/Robert (takes|needs|wants|works best|talks more)\b|stings Robert/);
    // The pair's dynamics are hedged in what they describe, and their advice is as before.
    expect(all).toContain('Robert is likely to want feedback that is encouraging and Tess to give feedback that is accurate, which Robert may hear as cold.<br>');
    // What Tess needs (the first phrase of each topic: she comes first in the path) stays as firm as ever.
    const tessNeeds = topics.map((key) => (body[key] as { phrases: string[] }).phrases[0] ?? '');
    expect(tessNeeds).toContain('Tess settles a disagreement on evidence; Robert should bring the facts and give Tess time to check them before a decision.');
    for (const phrase of tessNeeds) expect(phrase).not.toMatch(/\b(may|likely|probably|seems?|perhaps|might)\b|tends? to/);
  });

  it('message advice and sample emails hedge what they say of a reader profiled from a short text sample, and keep a tested reader firm', async () => {
    // Nobody of this name is stored: the profile rests on the sample alone (100 words: tentative).
    const started = await searchAsync({ first_name: 'Marisol', last_name: 'Newcombe', text_sample: SHORT_OUTGOING_TEXT, text_type: 'email' });
    const marisol = started.json().request_id as string;
    const profile = await poll(marisol);
    expect(profile.json().info.first_name).toBe('Marisol');
    expect(profile.json().recommendations.overview).toMatch(/tentative/);
    const tess = await completedId({ email: 'tess.okafor@example.com' });
    const text = 'Hello, the contract is attached and the new pricing is a huge improvement. Could you sign it by Friday the 12th at noon please?';
    const advise = async (sender: string, recipient: string) => {
      const response = await service.connect.inject({ method: 'POST', url: `/v1/messaging/${sender}/${recipient}`, headers: { ...org, 'content-type': 'application/json' }, payload: JSON.stringify({ text }) });
      expect(response.statusCode).toBe(200);
      return response.json() as Array<{ start: number; end: number; recommendation: string }>;
    };
    const toMarisol = await advise(tess, marisol);
    expect(toMarisol[0]?.recommendation).toContain(
      '<span class="rapport-tentative">There is not much of Marisol\'s writing to go on, so this advice is tentative: read it as what Marisol may tend to prefer, and check it against how they actually reply.</span>',
    );
    expect(JSON.stringify(toMarisol).match(/rapport-tentative/g)).toHaveLength(1);
    expect(JSON.stringify(toMarisol)).toMatch(/Marisol (is likely to|may|seems to)/);
    expect(JSON.stringify(toMarisol)).not.toMatch(/Marisol (responds|cares|wants|needs|distrusts|decides) /);
    // Tess took the test: advice on writing to her is as firm as ever, whoever writes.
    const toTess = await advise(marisol, tess);
    expect(JSON.stringify(toTess)).not.toMatch(/rapport-tentative|writing to go on|Tess (is likely to|may|seems to)/);
    expect(JSON.stringify(toTess)).toMatch(/Tess (wants|needs|distrusts|decides|notices)/);
    // What the note on the sender's own habit says of Marisol, who writes here, is hedged in turn.
    expect(JSON.stringify(toTess)).not.toMatch(/Your own style is/);

    const emails = async (id: string) => {
      const response = await service.connect.inject({ method: 'POST', url: `/v1/emails/${id}`, headers: org });
      expect(response.statusCode).toBe(200);
      return response.json() as Array<{ label: string; description: string; text: string }>;
    };
    const forMarisol = await emails(marisol);
    expect(forMarisol[0]?.description).toContain("<p>There is not much of Marisol's writing to go on, so these tips are tentative");
    expect(forMarisol.filter((e) => e.description.includes('writing to go on'))).toHaveLength(1);
    for (const e of forMarisol) expect(e.description, e.label).toMatch(/^<p>[^<]*\b(may|likely|seems?|probably|writing suggests|writing shows)\b/);
    for (const e of forMarisol) expect(e.text).not.toMatch(/tentative|writing to go on/);
    const forTess = await emails(tess);
    expect(JSON.stringify(forTess)).not.toMatch(/tentative|writing to go on|writing suggests/);
  });

  it("unknown ids, ids of the wrong shape and another organization's ids are a 404 that says no such search belongs to this organization", async () => {
    const mine = await completedId({ email: 'robert.quillfeather@example.com' });
    const urls = [`/v1/profiles/results/${mine}`, `/v1/relationships/${mine}/${mine}`, `/v1/emails/${mine}`, `/v1/email/${mine}`];
    const messages = new Set<string>();
    for (const url of urls) {
      const response = await service.connect.inject({ method: 'GET', url, headers: otherOrg });
      expect(response.statusCode, url).toBe(404);
      messages.add(response.json().error.message);
    }
    // Not "nobody was found": the id names no search of this organization's.
    const unknown = await service.connect.inject({ url: '/v1/profiles/results/pr_AAAAAAAAAAAAAAAA', headers: org });
    messages.add(unknown.json().error.message);
    expect([...messages]).toEqual(['No profile search with this id belongs to this organization.', 'No completed profile search with this id belongs to this organization.']);
    for (const id of ['pr_AAAAAAAAAAAAAAAA', 'x', '%00', 'pr_' + 'a'.repeat(150), "1'%20OR%201=1"]) {
      const response = await service.connect.inject({ url: `/v1/profiles/results/${id}`, headers: org });
      expect([400, 404], id).toContain(response.statusCode);
      expect(response.json().error).toBeDefined();
    }
    const sameOrg = await service.connect.inject({ method: 'POST', url: `/v1/relationships/${mine}/pr_AAAAAAAAAAAAAAAA`, headers: org });
    expect(sameOrg.statusCode).toBe(404);
  });

  it('texts and emails sent to group C never reach the logs', () => {
    const log = lines.join('\n');
    expect(log).toContain('/v1/profiles');
    expect(log).not.toMatch(/quillfeather/i);
    expect(log).not.toContain('I love meeting new people');
    expect(log).not.toContain('amazing new product');
  });
});
