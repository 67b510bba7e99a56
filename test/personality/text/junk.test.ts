import { describe, expect, it } from 'vitest';
import { analyzeText, MIN_WORDS } from '../../../src/personality/text/index.ts';
import { loadModel } from '../../../src/personality/text/model.ts';
import { seededRandom } from '../../../training/random.ts';

const model = loadModel();

const ENGLISH =
  'I spent the whole weekend with my friends at the lake, and honestly it was the best time I have had in months. ' +
  'We talked until late every night, cooked together, and laughed about the silly things we did when we were kids. ' +
  'I think I need more weekends like that, because work has been stressful and I forget how much I enjoy being around people. ' +
  'Next month we are planning another trip, and I already told everyone that I will bring the food and the music.';

function randomLetters(seed: number, words: number): string {
  const random = seededRandom(seed);
  return Array.from({ length: words }, () => {
    const length = 2 + Math.floor(random() * 8);
    return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  }).join(' ');
}

describe('texts that yield no personality', () => {
  it('rejects too few words as too_short with the count', () => {
    expect(analyzeText('I like people and parties.', { model })).toEqual({ ok: false, reason: 'too_short', wordCount: 5 });
    expect(analyzeText('', { model })).toEqual({ ok: false, reason: 'too_short', wordCount: 0 });
    const justUnder = ENGLISH.split(' ').slice(0, MIN_WORDS - 1).join(' ');
    expect(analyzeText(justUnder, { model })).toMatchObject({ ok: false, reason: 'too_short', wordCount: MIN_WORDS - 1 });
  });

  const junk: Record<string, string> = {
    'one word repeated': 'hello '.repeat(300),
    'a phrase repeated': 'buy cheap pills now '.repeat(100),
    'numbers only': Array.from({ length: 200 }, (_, i) => String((i * 37) % 1000)).join(' '),
    'markup only': '<div class="row"><span></span><br/></div>\n'.repeat(60),
    'markup without spaces': '<div><p></p></div>'.repeat(40),
    'code only': 'function add(a, b) { return a + b; }\nconst x = add(1, 2);\nif (x > 2) { console.log(x); }\n'.repeat(20),
    'keyboard mashing': 'asdf jkl; qwer zxcv hjkl sdfg wert xcvb fghj dfgh '.repeat(15),
  };
  for (const [name, text] of Object.entries(junk)) {
    it(`rejects ${name} as junk`, () => {
      const result = analyzeText(text, { model });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toBe('junk');
    });
  }

  it('rejects random letter strings as junk for every seed tried', () => {
    for (let seed = 1; seed <= 25; seed++) expect(analyzeText(randomLetters(seed, 80), { model })).toMatchObject({ ok: false, reason: 'junk' });
  });

  const foreign: Record<string, string> = {
    French:
      "Je suis allé au marché ce matin pour acheter des légumes et du pain. Il faisait beau et les gens étaient contents de se promener dans les rues. Ensuite j'ai retrouvé mes amis au café pour discuter de nos vacances et de nos projets pour l'année prochaine.",
    Spanish:
      'Ayer fui a la playa con mi familia y pasamos un día muy agradable. Mi hermano pequeño construyó un castillo de arena enorme mientras mis padres leían sus libros bajo la sombrilla. Por la tarde comimos paella en un restaurante cerca del puerto.',
    German:
      'Gestern bin ich mit meinen Freunden in die Berge gefahren. Das Wetter war wunderbar und wir sind den ganzen Tag gewandert. Am Abend haben wir in einer kleinen Hütte gegessen und über unsere Pläne für den Sommer gesprochen, weil es uns so gut gefallen hat.',
    Russian:
      'Вчера я ходил в парк с друзьями. Погода была прекрасная, и мы долго гуляли по аллеям, разговаривали о жизни и планах на будущее. Потом мы зашли в кафе, выпили кофе и съели по куску пирога. Вечером я вернулся домой уставший, но очень довольный этим днём.',
  };
  for (const [language, text] of Object.entries(foreign)) {
    it(`rejects ${language} as unsupported_language`, () => {
      expect(analyzeText(text, { model })).toMatchObject({ ok: false, reason: 'unsupported_language' });
    });
  }

  it('accepts ordinary English, including English inside HTML', () => {
    expect(analyzeText(ENGLISH, { model }).ok).toBe(true);
    expect(analyzeText(`<html><body><p>${ENGLISH}</p></body></html>`, { model }).ok).toBe(true);
  });
});
