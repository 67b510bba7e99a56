import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadQuestionnaire, OCTANT_CODES, parseQuestionnaire } from '../../src/assessment/questionnaire.ts';
import { INSTRUMENTS_DIR as INSTRUMENTS } from '../fixtures/reference-data.ts';

const q = loadQuestionnaire();
const raw: unknown = JSON.parse(readFileSync(new URL('../../src/assessment/questionnaire.json', import.meta.url), 'utf8'));

describe('the questionnaire', () => {
  it('holds the 32 circumplex items, four per octant, and 8 openness and 8 conscientiousness items keyed both ways', () => {
    expect(q.items).toHaveLength(48);
    for (const code of OCTANT_CODES) expect(q.items.filter((i) => i.scale === code)).toHaveLength(4);
    for (const trait of ['openness', 'conscientiousness'] as const) {
      expect(q.items.filter((i) => i.scale === trait && i.keyed === 'plus')).toHaveLength(4);
      expect(q.items.filter((i) => i.scale === trait && i.keyed === 'minus')).toHaveLength(4);
    }
    expect(q.items.map((i) => i.id)).toContain('ipc-01');
    expect(q.items.map((i) => i.id)).toContain('neo-o-01');
    expect(q.version).toMatch(/\S/);
  });

  it('has screens of six questions mixing both instruments, each item once', () => {
    expect(q.screens).toHaveLength(8);
    for (const screen of q.screens) {
      expect(screen).toHaveLength(6);
      expect(screen.some((id) => id.startsWith('ipc-'))).toBe(true);
      expect(screen.some((id) => id.startsWith('neo-'))).toBe(true);
    }
    expect(new Set(q.screens.flat()).size).toBe(48);
  });

  it('offers the instrument anchors as five options', () => {
    expect(q.options.map((o) => o.value)).toEqual([1, 2, 3, 4, 5]);
    expect(q.options[0]?.label).toBe('Very Inaccurate');
    expect(q.options[4]?.label).toBe('Very Accurate');
  });

  it('places the octants at the instrument angles: warmth at 0°, dominance at 90°', () => {
    const angle = (code: string): number | undefined => q.octants.find((o) => o.code === code)?.angle;
    expect(angle('LM')).toBe(0);
    expect(angle('PA')).toBe(90);
    expect(angle('DE')).toBe(180);
    expect(angle('HI')).toBe(270);
  });

  it('copies item texts and keying unchanged from the instruments (training/corpus/instruments)', () => {
    const ipc = JSON.parse(readFileSync(`${INSTRUMENTS}ipip-ipc.json`, 'utf8')) as { items: { number: number; text: string; octant: string }[] };
    expect(ipc.items).toHaveLength(32);
    for (const item of ipc.items) {
      const ours = q.items.find((i) => i.id === `ipc-${String(item.number).padStart(2, '0')}`);
      expect(ours).toMatchObject({ text: item.text, scale: item.octant, keyed: 'plus' });
    }
    const neo = JSON.parse(readFileSync(`${INSTRUMENTS}ipip-neo-120.json`, 'utf8')) as { items: { text: string; domain: string; keyed: string }[] };
    for (const item of q.items.filter((i) => i.id.startsWith('neo-'))) {
      const source = neo.items.find((n) => n.text === item.text);
      expect(source?.keyed).toBe(item.keyed);
      expect(source?.domain).toBe(item.scale === 'openness' ? 'O' : 'C');
    }
  });

  it('refuses a broken file at load: duplicate ids, an item on no screen, a short octant', () => {
    const clone = (): Record<string, unknown> & { items: { id: string; scale: string }[]; screens: string[][] } => JSON.parse(JSON.stringify(raw)) as never;
    const duplicate = clone();
    const first = duplicate.items[0];
    const second = duplicate.items[1];
    if (first && second) second.id = first.id;
    expect(() => parseQuestionnaire(duplicate)).toThrow(/unique/);
    const unplaced = clone();
    unplaced.screens[0]?.pop();
    expect(() => parseQuestionnaire(unplaced)).toThrow(/screen/);
    const short = clone();
    const pa = short.items.find((i) => i.scale === 'PA');
    if (pa) pa.scale = 'LM';
    expect(() => parseQuestionnaire(short)).toThrow(/four items/);
    expect(() => parseQuestionnaire({ ...clone(), format: 'other' })).toThrow(/format/);
  });
});
