/**
 * `npm run eval`'s section on the C4 draft checker: precision and recall per category and
 * overall on the labelled drafts, the tuning and held-out parts apart, beside the keyword
 * baseline. `npm run eval -- --drafts` prints this section alone; `--misses` adds, for the
 * tuning part only, every issue missed and every recommendation that matched no issue (the
 * held-out part is never listed: it stays unseen while the rules are tuned); `--before <dir>` adds
 * another checkout's checker beside this one (README.md, "Scores").
 */
import { CATEGORIES, SPLITS, baselineSpans, checkerSpans, checkoutSpans, matchSpans, precision, readDrafts, recall, score, spansOverASentence, type LabelledDraft, type Scores, type Span } from './score.ts';

const pct = (value: number): string => `${(100 * value).toFixed(1)}`;

function table(title: string, drafts: readonly LabelledDraft[], before: ((draft: LabelledDraft) => Span[]) | null): void {
  const checker = score(drafts, checkerSpans);
  const baseline = score(drafts, baselineSpans);
  const earlier = before === null ? null : score(drafts, before);
  const widths = [13, 8, 8, 12, 9, ...(earlier === null ? [] : [11, 9]), 12, 9];
  const row = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 10)).join(' ');
  console.log(`${title}: ${drafts.length} drafts, ${drafts.filter((d) => d.issues.length === 0).length} with no issue`);
  console.log(row(['category', 'issues', 'said', 'precision %', 'recall %', ...(earlier === null ? [] : ['before P %', 'R %']), 'baseline P %', 'R %']));
  console.log(row(widths.map((w) => '-'.repeat(w))));
  const line = (key: keyof Scores): void => {
    const c = checker[key];
    const b = baseline[key];
    const e = earlier?.[key];
    console.log(row([key, String(c.issues), String(c.found), pct(precision(c)), pct(recall(c)), ...(e === undefined ? [] : [pct(precision(e)), pct(recall(e))]), pct(precision(b)), pct(recall(b))]));
  };
  for (const category of CATEGORIES) line(category);
  line('overall');
  const over = drafts.flatMap((d) => spansOverASentence(d, checkerSpans(d)));
  const unscored = new Map<string, number>();
  for (const d of drafts) for (const s of checkerSpans(d)) if (!(CATEGORIES as readonly string[]).includes(s.category)) unscored.set(s.category, (unscored.get(s.category) ?? 0) + 1);
  console.log(`spans longer than a sentence: ${over.length}`);
  console.log(`not scored (thresholds of the reader's style): ${[...unscored].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}\n`);
}

function misses(drafts: readonly LabelledDraft[]): void {
  for (const d of drafts) {
    const found = checkerSpans(d).filter((f) => (CATEGORIES as readonly string[]).includes(f.category));
    const { matchedIssues, matchedFound } = matchSpans(d.issues, found);
    const lines = [
      ...d.issues.filter((_, i) => !matchedIssues.has(i)).map((m) => `  missed ${m.category}: "${m.quote}"`),
      ...found.filter((_, j) => !matchedFound.has(j)).map((f) => `  extra  ${f.category}: "${d.text.slice(f.start, f.end)}"`),
    ];
    if (lines.length > 0) console.log(`${d.id} (${d.kind}, to ${d.recipient.style}):\n${lines.join('\n')}`);
  }
}

/**
 * Prints the section; true when the caller asked for it alone (`--drafts`, or one of its own
 * options). `--before <dir>` adds the checker of another checkout (a worktree of the code before
 * this checker, say) beside this one.
 */
export async function draftsReport(argv: readonly string[]): Promise<boolean> {
  const drafts = readDrafts();
  const at = argv.indexOf('--before');
  const dir = at >= 0 ? argv[at + 1] : undefined;
  const before = dir === undefined ? null : await checkoutSpans(dir);
  console.log('C4 draft checker on the labelled drafts (training/drafts/README.md): a recommendation counts when its check and span match a marked issue\n');
  for (const split of SPLITS) {
    if (argv.includes('--tuning-only') && split === 'heldout') continue;
    table(split === 'tuning' ? 'tuning part' : 'held-out part (never looked at while tuning)', drafts.filter((d) => d.split === split), before);
  }
  if (argv.includes('--misses')) misses(drafts.filter((d) => d.split === 'tuning'));
  return ['--drafts', '--misses', '--tuning-only', '--before'].some((flag) => argv.includes(flag));
}
