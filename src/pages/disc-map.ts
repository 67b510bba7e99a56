/**
 * The DISC map image: the circle, its sixteen sectors and the person's dot at their exact
 * point (docs/architecture.md, "The DISC circle"). SVG is built as a string, deterministically; PNG is rasterised by resvg.
 */
import { existsSync } from 'node:fs';
import { delimiter, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ResvgJs from '@resvg/resvg-js';
import { DISC_TYPES, clipToUnitDisc, type DiscType } from '../personality/circle.ts';
import type { DiscPoint } from '../personality/types.ts';
import { loadOnUse } from '../shared/load-on-use.ts';
import { escapeXml } from './html.ts';

const SIZE = 400;
const CENTRE = SIZE / 2;
const RADIUS = 150;
const HALF_SECTOR = 11.25;
const FONT_STACK = "'DejaVu Sans', 'Liberation Sans', Helvetica, Arial, sans-serif";
const INK = '#1f2933';
const MUTED = '#52606d';

/** Classic DISC hues, one per family (the first letter of a type code). */
const FAMILY_COLOURS: Readonly<Record<string, readonly [number, number, number]>> = {
  D: [214, 69, 65],
  I: [240, 165, 45],
  S: [76, 175, 110],
  C: [59, 125, 216],
};

/** Fixed precision keeps output identical across runs and short to transmit. */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** Plane → SVG coordinates (SVG's y axis points down). */
function toCanvas(p: DiscPoint, radius = RADIUS): { x: number; y: number } {
  return { x: CENTRE + p.x * radius, y: CENTRE - p.y * radius };
}

function onCircle(deg: number, radius: number): { x: number; y: number } {
  const rad = (deg * Math.PI) / 180;
  return toCanvas({ x: Math.cos(rad), y: Math.sin(rad) }, radius);
}

function hex([r, g, b]: readonly [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Mixes a colour towards white; strength 1 is the pure colour. */
function tint(rgb: readonly [number, number, number], strength: number): string {
  return hex([rgb[0], rgb[1], rgb[2]].map((c) => 255 - (255 - c) * strength) as [number, number, number]);
}

function familyColour(letter: string): readonly [number, number, number] {
  return FAMILY_COLOURS[letter.toUpperCase()] ?? [128, 128, 128];
}

/**
 * The pure style (D) is the strongest tint, a style with a second tendency (Di) lighter, and an
 * even blend (DI) lightest, mixed from both families, so the quadrants read at a glance.
 */
function sectorFill(code: DiscType): string {
  const [first = 'D', second] = code.split('');
  if (second === undefined) return tint(familyColour(first), 0.62);
  if (second === second.toLowerCase()) return tint(familyColour(first), 0.36);
  const a = familyColour(first);
  const b = familyColour(second);
  return tint([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], 0.22);
}

function sectorPath(centreAngle: number): string {
  const start = onCircle(centreAngle - HALF_SECTOR, RADIUS);
  const end = onCircle(centreAngle + HALF_SECTOR, RADIUS);
  // Sweep flag 0 draws counter-clockwise on screen, matching increasing plane angles.
  return `M${num(CENTRE)} ${num(CENTRE)}L${num(start.x)} ${num(start.y)}A${RADIUS} ${RADIUS} 0 0 0 ${num(end.x)} ${num(end.y)}Z`;
}

function sectors(): string {
  return DISC_TYPES.map(
    ({ code, angle }) => `<path class="sector" data-type="${code}" d="${sectorPath(angle)}" fill="${sectorFill(code)}"/>`,
  ).join('');
}

function sectorLabels(): string {
  return DISC_TYPES.map(({ code, angle }) => {
    const main = code.length === 1;
    // Near the rim, where few people sit, so the dot rarely hides a label.
    const at = onCircle(angle, RADIUS * (main ? 0.86 : 0.87));
    const size = main ? 20 : 12;
    const weight = main ? '700' : '600';
    return `<text class="type-label" x="${num(at.x)}" y="${num(at.y)}" font-size="${size}" font-weight="${weight}" text-anchor="middle" dominant-baseline="central" fill="${INK}">${code}</text>`;
  }).join('');
}

function guides(): string {
  const rings = [0.25, 0.5, 0.75]
    .map((r) => `<circle cx="${CENTRE}" cy="${CENTRE}" r="${num(RADIUS * r)}" fill="none" stroke="#ffffff" stroke-opacity="0.75" stroke-width="1"/>`)
    .join('');
  const axis = `stroke="${INK}" stroke-opacity="0.28" stroke-width="1" stroke-dasharray="4 4"`;
  const lines =
    `<line x1="${CENTRE - RADIUS - 8}" y1="${CENTRE}" x2="${CENTRE + RADIUS + 8}" y2="${CENTRE}" ${axis}/>` +
    `<line x1="${CENTRE}" y1="${CENTRE - RADIUS - 8}" x2="${CENTRE}" y2="${CENTRE + RADIUS + 8}" ${axis}/>`;
  return rings + lines;
}

/** Where the plane's axes point, so the map reads without a legend. */
function axisHints(): string {
  const common = `font-size="11" font-weight="600" letter-spacing="2" fill="${MUTED}" text-anchor="middle" dominant-baseline="central"`;
  const far = RADIUS + 22;
  return (
    `<text x="${CENTRE}" y="${CENTRE - far}" ${common}>ACTIVE</text>` +
    `<text x="${CENTRE}" y="${CENTRE + far}" ${common}>REFLECTIVE</text>` +
    `<text x="${CENTRE - far}" y="${CENTRE}" transform="rotate(-90 ${CENTRE - far} ${CENTRE})" ${common}>QUESTIONING</text>` +
    `<text x="${CENTRE + far}" y="${CENTRE}" transform="rotate(90 ${CENTRE + far} ${CENTRE})" ${common}>ACCEPTING</text>`
  );
}

const MAX_LABEL_CHARS = 24;
const LABEL_FONT_SIZE = 13;
/** Rough advance of a bold sans glyph, to keep the label inside the image. */
const LABEL_CHAR_WIDTH = 0.64 * LABEL_FONT_SIZE;
const LABEL_HEIGHT = 22;

function personMarker(point: DiscPoint, label: string | undefined): string {
  const at = toCanvas(point);
  const dot =
    `<circle cx="${num(at.x)}" cy="${num(at.y)}" r="16" fill="${INK}" fill-opacity="0.15"/>` +
    `<circle id="person-dot" cx="${num(at.x)}" cy="${num(at.y)}" r="8" fill="${INK}" stroke="#ffffff" stroke-width="3"/>`;
  const trimmed = label?.trim() ?? '';
  if (trimmed === '') return dot;
  const chars = Array.from(trimmed);
  const shown = chars.length > MAX_LABEL_CHARS ? `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}…` : trimmed;
  // The label sits on the centre side of the dot, so a dot on the rim never pushes it over
  // the axis hints or out of the image; horizontally it is kept inside the canvas.
  const labelY = point.y > 0 ? at.y + 26 : at.y - 26;
  const halfWidth = (Array.from(shown).length * LABEL_CHAR_WIDTH) / 2 + 9;
  const labelX = Math.min(SIZE - halfWidth - 2, Math.max(halfWidth + 2, at.x));
  // A pill behind the name keeps it readable over sector labels and tints alike.
  const pill = `<rect x="${num(labelX - halfWidth)}" y="${num(labelY - LABEL_HEIGHT / 2)}" width="${num(2 * halfWidth)}" height="${LABEL_HEIGHT}" rx="${LABEL_HEIGHT / 2}" fill="#ffffff" fill-opacity="0.94" stroke="#9aa5b1" stroke-width="1"/>`;
  return (
    dot +
    pill +
    `<text class="person-label" x="${num(labelX)}" y="${num(labelY)}" font-size="${LABEL_FONT_SIZE}" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${INK}">${escapeXml(shown)}</text>`
  );
}

let background: string | undefined;

/**
 * Everything but the person's dot: the same for every map, so built once (it is most of the
 * SVG, and building it for each of a burst of map requests showed on the event loop).
 */
function mapBackground(): string {
  background ??=
    `<rect width="${SIZE}" height="${SIZE}" fill="#ffffff"/>` +
    `<g stroke="#ffffff" stroke-width="1.5">${sectors()}</g>` +
    guides() +
    `<circle cx="${CENTRE}" cy="${CENTRE}" r="${RADIUS}" fill="none" stroke="#9aa5b1" stroke-width="1.5"/>` +
    sectorLabels() +
    axisHints();
  return background;
}

/** A self-contained SVG of the DISC circle with the person's dot at their exact point. */
export function renderDiscMapSvg(point: DiscPoint, opts: { label?: string } = {}): string {
  const p = clipToUnitDisc(point);
  const title = opts.label !== undefined && opts.label.trim() !== '' ? `DISC map: ${opts.label.trim()}` : 'DISC map';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}" role="img" font-family="${FONT_STACK}">` +
    `<title>${escapeXml(title)}</title>` +
    mapBackground() +
    personMarker(p, opts.label) +
    '</svg>'
  );
}

const REPO_FONTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../assets/fonts');

/**
 * Font files tried in order, with the family name they provide. A bundled copy under
 * assets/fonts wins, then the usual locations of DejaVu or Liberation on Debian/Ubuntu,
 * Fedora, Alpine and Arch. RAPPORT_FONT_FILE (paths joined by the path delimiter) overrides all.
 */
const FONT_CANDIDATES: readonly { family: string; paths: readonly string[] }[] = [
  { family: 'DejaVu Sans', paths: [resolve(REPO_FONTS, 'DejaVuSans.ttf'), resolve(REPO_FONTS, 'DejaVuSans-Bold.ttf')] },
  {
    family: 'DejaVu Sans',
    paths: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  },
  { family: 'DejaVu Sans', paths: ['/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf', '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf'] },
  { family: 'DejaVu Sans', paths: ['/usr/share/fonts/dejavu/DejaVuSans.ttf', '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf'] },
  { family: 'DejaVu Sans', paths: ['/usr/share/fonts/TTF/DejaVuSans.ttf', '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf'] },
  {
    family: 'Liberation Sans',
    paths: ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'],
  },
];

let cachedFonts: { files: readonly string[]; family: string | undefined } | undefined;

/**
 * The font files the PNG renderer will use. Empty files means none was found and resvg falls
 * back to scanning system folders; on a machine with no fonts at all, text would then be
 * missing from PNGs (SVGs are unaffected: the browser renders their text).
 */
export function discMapFonts(): { files: readonly string[]; family: string | undefined } {
  if (cachedFonts !== undefined) return cachedFonts;
  const override = (process.env.RAPPORT_FONT_FILE ?? '').split(delimiter).filter((f) => f !== '' && existsSync(f));
  if (override.length > 0) {
    cachedFonts = { files: override, family: undefined };
    return cachedFonts;
  }
  for (const candidate of FONT_CANDIDATES) {
    const files = candidate.paths.filter((f) => existsSync(f));
    if (files.length > 0) {
      cachedFonts = { files, family: candidate.family };
      return cachedFonts;
    }
  }
  cachedFonts = { files: [], family: undefined };
  return cachedFonts;
}

/** Rasterises a DISC map SVG; width in pixels (default 2× the viewBox for sharp screens). */
export function renderDiscMapPng(svg: string, width = SIZE * 2): Buffer {
  const fonts = discMapFonts();
  // The native rasteriser (a 4 MB library) loads in the thread that draws PNGs, not in every process that links to a map.
  const { Resvg } = loadOnUse('@resvg/resvg-js') as typeof ResvgJs;
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.max(16, Math.min(4096, Math.round(width))) },
    font: {
      // Scanning system font folders costs tens of milliseconds per image; known files do not.
      loadSystemFonts: fonts.files.length === 0,
      fontFiles: [...fonts.files],
      ...(fonts.family === undefined ? {} : { defaultFontFamily: fonts.family, sansSerifFamily: fonts.family }),
    },
  });
  return resvg.render().asPng();
}

const KEY_PART = /^-?\d{1,3}(?:\.\d{1,6})?$/;

/**
 * Key for the image URL, "{x}_{y}" with 3 decimals. Rounding to nearest could push a point on
 * the rim just outside the disc; then both parts are truncated towards zero instead, so a key
 * always names a point inside the disc and parse → key is stable.
 */
export function discMapKey(point: DiscPoint): string {
  const p = clipToUnitDisc(point);
  let x = Math.round(p.x * 1000) / 1000;
  let y = Math.round(p.y * 1000) / 1000;
  if (Math.hypot(x, y) > 1) {
    x = Math.trunc(p.x * 1000) / 1000;
    y = Math.trunc(p.y * 1000) / 1000;
  }
  const part = (v: number): string => (v === 0 ? '0.000' : v.toFixed(3));
  return `${part(x)}_${part(y)}`;
}

/** Point named by an image key; anything that is not two plain decimals gives null. */
export function parseDiscMapKey(key: string): DiscPoint | null {
  if (typeof key !== 'string' || key.length > 32) return null;
  const parts = key.split('_');
  if (parts.length !== 2) return null;
  const [xText = '', yText = ''] = parts;
  if (!KEY_PART.test(xText) || !KEY_PART.test(yText)) return null;
  const clipped = clipToUnitDisc({ x: Number(xText), y: Number(yText) });
  // Normalise −0 so the point serialises the same way as 0.
  return { x: clipped.x === 0 ? 0 : clipped.x, y: clipped.y === 0 ? 0 : clipped.y };
}
