/**
 * How each side of a claims.ts topic reads in a sentence: the words that assert it. The library
 * test holds every phrase whose wording asserts a side to carry that side's `stance`, and the
 * claims check (profile-check.ts) reads generated pages with these as well as with the tags, so a
 * phrase that takes a side without saying so in its tags is caught either way. Written to match
 * assertions, not mentions: "rarely pushes hard" is `drive:gentle`, not `drive:hard`.
 */
export const CLAIM_WORDING: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = {
  lead: {
    takes: /\btakes? charge\b|\btaking charge\b|control of the outcome|leading from the front|take over (a|the) discussion|assigning tasks|\bsteer the discussion\b|decide alone|settling the goal|\bmake the call\b/i,
    yields: /follow a capable lead|without (needing|having) to (be the one who )?lead|willing to follow|natural supporter|clear roles and explicit instructions|rather follow/i,
  },
  drive: {
    hard: /(?<!rarely |without )\bpush(es|ing)? hard\b|push(es)? for (a decision|early|results)|pushes a team towards action|negotiating hard|expects the group to commit|hard push(?! )/i,
    gentle: /rarely push(es|y)?\b|rather than a hard push|without insisting|without demanding|gentle questions than as open pushback/i,
  },
  conflict: {
    faces: /conflict head-on|deals with conflict|argues? with energy|conflict does not put|comfortable with disagreement|wants the matter settled|push back directly/i,
    avoids: /avoids? confrontation|conflict is uncomfortable|keep(s)? the peace|smooth(s)? over friction|peacemaker|rarely raises conflict|agree outwardly|open conflict is uncomfortable|ease tension|keep disagreement low-key/i,
  },
  pace: {
    sets: /\bsets the pace\b|the goal, the pace|expects others to (match|keep) (the )?pace/i,
    follows: /without insisting on setting the pace|match the pace of the people around/i,
  },
  turn: {
    first: /while others are still (debating|discussing)|cuts in\b|talks ideas through out loud|expect interruptions/i,
    after: /after others have had their say|thinks? before speaking|listen more than they speak|say(s)? little in meetings|go quiet|stay quiet|may need to be asked directly|explicit invitation|opinions rarely come|let \{first\} finish thinking|may not be offered unprompted/i,
  },
  tempo: {
    fast: /decides? quickly|makes decisions quickly|decide in the room|makes the call quickly|long deliberation makes|tight deadlines energise|rarely waits for complete/i,
    unhurried: /decisions take \{first\} time|rather take an extra day|(do not|don't) expect a decision on the spot|considered response .* a day later|do not press for a decision in the room|steady, sustainable pace/i,
  },
  risk: {
    bold: /takes risks readily/i,
    cautious: /careful with risks?|avoids? risk/i,
  },
  length: {
    short: /\b(two|three) lines\b|\ba short (message|email)\b|keep (it|emails?|messages?|updates[^.;]*) (short|brief)|the bottom line and one page|three to five sentences/i,
    long: /longer email|full(er)? email|answer questions fully/i,
  },
  order: {
    ask_first: /(decision|ask|request|recommendation|point|what you need)[^.;]* in the (first|very first) (line|sentence)|in the first (line|sentence)[^.;]*(decision|ask|request)|(lead|start|open) with the (decision|conclusion|ask|request)|name the decision you need|say what you need early|bottom line first|put what matters in the first lines/i,
    context_first: /background first|context (first|before)|reasons? before the request/i,
  },
  warmth: {
    warm: /\bwarm (and|manner|tone|,)|keep even short messages warm|relationships come first/i,
    cool: /(?<!purely )businesslike|reserved at first|emotion stays out|logic outweighs sentiment|matter-of-fact/i,
  },
  opening: {
    warmup: /before the agenda|open with genuine personal conversation|open with a friendly word|start by asking how/i,
    direct: /skip the small talk|straight to business is|reach the headline within/i,
  },
  feedback: {
    gentle: /criticism (to \{first\} )?carefully|harsh criticism|raise concerns gently|softens? feedback|don't open with criticism|criticis\w* in private|curt message may read|abrupt note can read/i,
    blunt: /direct,? unvarnished feedback|takes? direct feedback in (their|its) stride|do not take directness personally|blunt news calmly|problems stated plainly|heavy cushioning/i,
  },
  agenda: {
    wanders: /conversation to wander|conversations that wander|follow a tangent|build in time for it/i,
    focused: /brisk, purposeful|never run over time|keep it short: state the purpose|reach the headline within/i,
  },
  company: {
    team: /works? best in a team|working alongside others appeals|prefer talking a task through together/i,
    solo: /prefers? to work independently|works independently|work a problem through alone|rather work with a few/i,
  },
  channel: {
    spoken: /a call often beats|talk it out straight away|quick conversation (to|may reach)|in person or on video/i,
    written: /written question often suits|put the details in writing|prefers written plans|in writing or one to one/i,
  },
  praise: {
    public: /in front of the team|appreciation expressed openly|chance to shine|presenting the result/i,
    private: /praise (\w+ )?(privately|in private)|rarely seeks attention/i,
  },
  novelty: {
    seeks: /new ideas are where|experiments readily|try a new tool|curious about new ideas|conversations that wander into ideas|room to try new approaches/i,
    wary: /proven|familiar tools and routines|wary of change|tried methods|realist who trusts experience/i,
  },
  detail: {
    detail: /(?<!not need )every detail|care for detail|eye for detail|numbered points|be precise with numbers|exact about (numbers|amounts)/i,
    big_picture: /big idea|the gist|skip the details|short version and the details|energy better than the specifics/i,
  },
  structure: {
    orderly: /runs on plans, checklists|keeper of process|keeps careful records|methodical|systematic|in a set order|finish what they start|planning well ahead/i,
    loose: /room to improvise|learning by doing|in bursts|juggl|several projects run at once|lose track|loose ends from piling|details and paperwork until late/i,
  },
  composure: {
    steady: /even-tempered|stays level|in stride|unflustered|steady hand|rarely shows stress|handles pressure well|keeps a calm tone under pressure/i,
    rattled: /feel(s)? pressure more keenly|unsettles? \{first\}|\{first\} (may )?worr(y|ies)|weigh on them|feels setbacks|take setbacks a little more to heart/i,
  },
};

/** The `topic:side` claims a text's wording asserts. */
export function claimsWorded(text: string): string[] {
  const plain = text.replaceAll('**', '').replace(/<[^>]*>/g, ' ');
  const found: string[] = [];
  for (const [topic, sides] of Object.entries(CLAIM_WORDING)) {
    for (const [side, pattern] of Object.entries(sides)) if (pattern.test(plain)) found.push(`${topic}:${side}`);
  }
  return found;
}
