/**
 * What people do in professional writing that a careful reader takes as a sign of their style:
 * commitments and instructions, targets and results, excitement and people, help and thanks,
 * checks and caveats. Each signal is a list of phrases; the model learns how much each one
 * counts for each trait from labelled writing (training/), so the `leans` below only document
 * the reading a signal was written for. `label` is what a customer reads beside the phrase in
 * the evidence ("by Friday — sets a deadline").
 *
 * Phrase syntax, lower case, phrases separated by `|`, words by spaces:
 * - `word*` matches every word starting with `word` (a stem);
 * - `^word` matches only at the start of a sentence (a bullet line is a sentence);
 * - `#` a plain number, `#%` a share (30%), `#$` an amount of money ($2M), `#x` a multiple
 *   (3x), `#.` a number with a decimal point (2.3);
 * - a hyphen is read as a space (the tokenizer splits "results-driven" into two words).
 *
 * Where phrases overlap, the longest match at a position wins ("happy to help" is help, not
 * excitement), and on a tie the signal listed first. Self-descriptions come first so that
 * "patient" is the writer calling themself patient, not a sign of care; `npm run eval`
 * deletes them from held-out texts to check the reading does not rest on them.
 *
 * Changing these lists changes the model's features: bump SIGNALS_VERSION and retrain.
 */
export const SIGNALS_VERSION = 1;

export type Style = 'D' | 'I' | 'S' | 'C';

export interface SignalDefinition {
  name: string;
  label: string;
  leans: Style;
  /** True for words a writer uses to describe themself ("decisive", "a people person"). */
  selfDescription?: boolean;
  phrases: string;
}

export const SIGNALS: readonly SignalDefinition[] = [
  {
    name: 'self_d',
    label: 'describes themself as driven or decisive',
    leans: 'D',
    selfDescription: true,
    phrases:
      'decisive|results driven|results oriented|result oriented|results focused|driven|ambitious|competitive|hard charging|goal oriented|go getter|' +
      'assertive|tenacious|no nonsense|straight talking|straight shooter|action oriented|bias for action',
  },
  {
    name: 'self_i',
    label: 'describes themself as outgoing or enthusiastic',
    leans: 'I',
    selfDescription: true,
    phrases:
      'enthusiastic|outgoing|energetic|people person|passionate|charismatic|sociable|extrovert*|bubbly|optimistic|optimist|high energy|' +
      'fun loving|gregarious|talkative|expressive|social butterfly|natural connector|connector',
  },
  {
    name: 'self_s',
    label: 'describes themself as patient or supportive',
    leans: 'S',
    selfDescription: true,
    phrases:
      'supportive|patient|calm|dependable|loyal|empathetic|empathic|team player|good listener|easygoing|easy going|even tempered|' +
      'steady hand|considerate|approachable|unflappable|level headed',
  },
  {
    name: 'self_c',
    label: 'describes themself as careful or analytical',
    leans: 'C',
    selfDescription: true,
    phrases:
      'analytical|meticulous|detail oriented|detail focused|methodical|systematic|rigorous|perfectionist|conscientious|exacting|' +
      'logical|precise|thorough|careful|process driven|data driven|evidence based',
  },

  // Pace and decisiveness.
  {
    name: 'deadline',
    label: 'sets a deadline',
    leans: 'D',
    phrases:
      'by monday|by tuesday|by wednesday|by thursday|by friday|by saturday|by sunday|by tomorrow|by tonight|by noon|by eod|by cob|' +
      'by close of business|by end of day|by the end of the day|by end of week|by the end of the week|by end of month|by the end of the month|' +
      'by end of quarter|by the end of the quarter|by #|by the #|no later than|before monday|before friday|before the weekend|asap|' +
      'as soon as possible|deadline*|due date|due by|within # hours|within # days|within # weeks|within the hour|within a week|end of day|' +
      'eod|first thing tomorrow|first thing monday|this week|today|tonight|tomorrow',
  },
  {
    name: 'commitment',
    label: 'commits to an action',
    leans: 'D',
    phrases:
      "i will|i'll|we will|we'll|i am going to|i'm going to|we are going to|we're going to|i have decided|i've decided|i decided|" +
      "we decided|we have decided|we've decided|i promise|you have my word|count on it|it will be done|will be done|i'll make sure|" +
      'i will make sure|i will deliver|we will deliver|we will ship|consider it done|done by',
  },
  {
    name: 'demand',
    label: 'states a demand',
    leans: 'D',
    phrases:
      'i expect|i need|i want|we need|we must|you must|must|have to|has to|non negotiable|no exceptions|required|mandatory|' +
      "i'm asking|i am asking|i insist|make it happen|get it done|no more|not optional",
  },
  {
    name: 'instruction',
    label: 'gives an instruction',
    leans: 'D',
    phrases:
      '^send|^get|^make|^call|^fix|^move|^ship|^stop|^start|^cut|^drop|^push|^bring|^give|^tell|^book|^finish|^deliver|^decide|' +
      "^escalate|^close|^sign|^hit|^focus|^prioritise|^prioritize|^lock|^kill|^pick|^cancel|^submit|^set|^do|^don't|^keep|^go|" +
      '^take|^put|^clear|^handle|^own|^come|^read|^reply|^respond|^answer|^forward|^loop|^escalate|^assign|^schedule|^email|^text',
  },
  {
    name: 'speed',
    label: 'pushes for speed',
    leans: 'D',
    phrases:
      'fast|faster|fastest|quick|quickly|speed|rapid*|immediately|urgent*|accelerat*|move fast|right away|right now|no delay|' +
      "without delay|don't wait|don't delay|momentum|sprint|hustle|now|at once|no time to lose|waste no time|time is money|pace",
  },
  {
    name: 'plain_speaking',
    label: 'speaks plainly',
    leans: 'D',
    phrases:
      'bottom line|the point is|frankly|to be clear|let me be clear|let me be direct|to be direct|no excuses|not acceptable|' +
      'unacceptable|not good enough|end of story|full stop|straight talk|no fluff|short version|bluntly|simply put|make no mistake|' +
      "let's be honest|honestly|plainly|i don't care|that's it|enough|that's final|non starter|waste of time|excuses",
  },
  {
    name: 'charge',
    label: 'takes charge',
    leans: 'D',
    phrases:
      'take charge|took charge|in charge|my call|final call|the call|ownership|accountab*|spearhead*|took over|take over|i decide|' +
      'made the call|decision maker|turnaround|turned around|took the lead|take the lead|took command|drove|drive|driving|led|lead the|' +
      'head up|headed up|overhaul*|restructur*|decisions|decide|decided',
  },

  // Goals and winning.
  {
    name: 'targets',
    label: 'talks about targets and numbers',
    leans: 'D',
    phrases:
      'target*|quota*|revenue|growth|results|roi|market share|bottom line|kpi*|goal*|objective*|margin*|pipeline|bookings|' +
      'profit*|numbers|p and l|p&l|ebitda|arr|mrr|win rate|conversion|performance|output|throughput|record',
  },
  {
    name: 'result',
    label: 'states a result',
    leans: 'D',
    phrases:
      'increased|grew|grown|doubled|tripled|quadrupled|slashed|cut|reduced|delivered|exceeded|beat|won|closed|launched|scaled|' +
      'achieved|outperformed|captured|generated|saved|boosted|expanded|secured|landed|hit|surpassed|smashed|crushed|topped|' +
      'turned|rebuilt|built|transformed|shipped',
  },
  {
    name: 'figure',
    label: 'cites a figure',
    leans: 'D',
    phrases: '#%|#$|#x|# percent|# per cent|# million|# billion|# thousand|# k|# m|# bn|#% of|top #|number one|#1',
  },
  {
    name: 'winning',
    label: 'talks about winning and competing',
    leans: 'D',
    phrases:
      'win|wins|winning|compete*|competitor*|competition|beat them|beating|dominate*|aggressive*|challenge*|bold|relentless*|hungry|' +
      'fight|crush*|outperform*|outsell*|best in class|top performer*|leaderboard|first to|market leader|lead the market|raise the bar|' +
      'no second place|second place|losing|lose|hate losing|stretch goal*|higher bar|push harder|push',
  },

  // Enthusiasm and people.
  {
    name: 'excitement',
    label: 'shows excitement',
    leans: 'I',
    phrases:
      "excited|exciting|excitement|thrill*|love|loved|loving|loves|amazing|awesome|fantastic|incredible|fun|can't wait|cannot wait|" +
      'delighted|wow|brilliant|buzz*|blast|stoked|so happy|big fan|woohoo|yay|hooray|wonderful|superb|terrific|over the moon|pumped|' +
      'fired up|electric|magic*|joy|joyful|adore|favourite|favorite|epic|best ever|so much fun|energised|energized|energising|' +
      'energizing|high energy|thrilled|ecstatic|lit|legendary|unforgettable|dream',
  },
  {
    name: 'people',
    label: 'talks about people and meeting them',
    leans: 'I',
    phrases:
      'people|meet|meeting new|new faces|met|connect|connecting|connections|network*|communit*|friend*|party|parties|event*|' +
      'stage|crowd*|audience*|introduc*|chat|chats|coffee|lunch|drinks|dinner|folks|everyone|everybody|welcome*|host|hosted|hosting|' +
      'mingle|relationship*|room full|conversation*|talk|talking|talks|social|gathering*|meetup*|festival*|launch party|guest*',
  },
  {
    name: 'celebration',
    label: 'celebrates others',
    leans: 'I',
    phrases:
      'celebrat*|shout out|shoutout|kudos|congrat*|props to|hats off|huge thanks to|well done|proud of|so proud|bravo|cheers to|' +
      'toast|high five|round of applause|hero|heroes|rock star*|rockstar*|superstar*|legend|star',
  },
  {
    name: 'ideas',
    label: 'shares ideas and vision',
    leans: 'I',
    phrases:
      'imagine|idea*|vision*|creativ*|brainstorm*|story|stories|storytell*|dream*|big picture|possibilit*|what if|spark*|new ways|' +
      'reinvent*|innovat*|inspir*|bold ideas|blue sky|moonshot|game changer|game changing|next big',
  },
  {
    name: 'rally',
    label: 'persuades and rallies people',
    leans: 'I',
    phrases:
      "pitch*|persuad*|convinc*|rally|rallied|rallying|evangeli*|spotlight|showcase|get excited|join us|come join|who's in|who is in|" +
      "sign up|don't miss|won't want to miss|trust me|believe me|let's go|let's do this|bring your|bring a friend|see you there|count me in|" +
      'spread the word|tell your friends|grab a|come along|jump in',
  },
  {
    name: 'exclamation',
    label: 'exclamation',
    leans: 'I',
    // Matched from the punctuation (signals.ts), not from words.
    phrases: '',
  },

  // Support and harmony.
  {
    name: 'help',
    label: 'offers help',
    leans: 'S',
    phrases:
      'help|helps|helped|helping|support|supported|supporting|supports|assist*|happy to help|happy to|glad to|here for you|here to help|' +
      'no problem|anytime|any time|let me know if|if you need anything|if you need|reach out|lend a hand|look after|looked after|' +
      'take care of|taking care of|serve|serving|service|mentor*|coach*|guide|guiding|guided|backing|back you up|cover for',
  },
  {
    name: 'thanks',
    label: 'thanks someone',
    leans: 'S',
    phrases: 'thank*|thanks|grateful|gratitude|appreciat*|many thanks|much appreciated|cheers|thankful|indebted',
  },
  {
    name: 'care',
    label: 'shows care for people',
    leans: 'S',
    phrases:
      'care|cares|caring|comfortable|wellbeing|well being|feel|feels|feeling*|kind|kindness|gentle|gently|listen*|heard|understand*|' +
      "reassur*|safe|hope you're well|hope you are well|hope you're doing well|hope this finds you well|take care|don't worry|" +
      'do not worry|how are you|how is everyone|check in|checking in|checked in|family|families|looking out for|look out for|' +
      'belong*|valued|respect*|empath*|compassion*|patience|patiently|sensitiv*|warm|warmth|welcoming|nurtur*|heart|trust*|' +
      'morale|feel free|no judgement|no judgment|at ease|put at ease|emotional*|stress*|burnout|worried|worry',
  },
  {
    name: 'together',
    label: 'includes everyone',
    leans: 'S',
    phrases:
      "together|each other|one another|collaborat*|cooperat*|consensus|harmony|everyone's input|all of us|as a team|teamwork|jointly|" +
      'side by side|shoulder to shoulder|hand in hand|inclusive|include everyone|bring everyone|on the same page|agree*|' +
      'our team|the team|team|teams|colleague*|partner*|shared|share|sharing|involve*|input|buy in|we all',
  },
  {
    name: 'steadiness',
    label: 'values steadiness and routine',
    leans: 'S',
    phrases:
      'steady|steadily|consistent*|reliab*|routine*|stable|stability|long term|loyalty|gradual*|step by step|smooth*|calm*|' +
      'continuity|maintain*|sustain*|predictab*|over the years|for # years|# years|year after year|familiar|settle*|transition*|' +
      'handover|hand over|no surprises|one step at a time|bit by bit|little by little|day in day out|every day|each week|every week|' +
      'every morning|each morning|every month|regular*|ongoing|balance|balanced|dependably|quietly|without fuss|low key',
  },
  {
    name: 'gentle_request',
    label: 'asks gently',
    leans: 'S',
    phrases:
      'would you mind|could you please|would you be able to|if you could|when you get a chance|when you have a moment|if possible|' +
      "if that works|if that's ok|if that is ok|whenever suits|whenever works|no rush|no pressure|at your convenience|in your own time|" +
      "just wanted to|just checking|just a quick|i was wondering|i wonder if|hope that's ok|hope that is ok|happy either way|" +
      "whatever works|what works best for you|does that work|^please|let me know what you think|if it helps|if you'd like|if you would like|" +
      'only if|when convenient|in case it helps|hope this helps|hope that helps',
  },

  // Precision and risk.
  {
    name: 'verification',
    label: 'checks and verifies',
    leans: 'C',
    phrases:
      'verif*|check|checked|checking|checks|double check*|cross check*|confirm*|validat*|test|tested|testing|tests|audit*|review*|' +
      'reconcil*|proofread*|inspect*|traced|sign off|signed off|quality assurance|qa|re run|rerun|re ran|reproduc*|peer review*|' +
      'second look|recheck*|re check*|spot check*',
  },
  {
    name: 'accuracy',
    label: 'insists on accuracy',
    leans: 'C',
    phrases:
      'accura*|precis*|exact|exactly|correct|correctly|incorrect*|error*|mistake*|discrepanc*|detail*|specific|specifically|rigo*|' +
      'standard*|complian*|specification*|spec|specs|tolerance*|quality|integrity|inconsisten*|defect*|deviation*|flaw*|omission*|' +
      'typo*|mismatch*|granular*|to the letter|line by line|down to|decimal*|rounding|footnote*|precisely',
  },
  {
    name: 'method',
    label: 'relies on data and method',
    leans: 'C',
    phrases:
      'data|evidence|analys*|analyz*|method*|model|models|modelling|modeling|metric*|measur*|sample*|finding*|source*|documented|' +
      'documentation|document|documents|process*|procedure*|framework*|assumption*|hypothes*|statistic*|significan*|baseline*|' +
      'benchmark*|variance|regression|dataset*|research*|study|studies|calculat*|estimate*|forecast*|criteria|criterion|protocol*|' +
      'systematic*|structured|logic|logical|controls|sop*|checklist*|spreadsheet*|log|logs|logged|records|recorded|record keeping',
  },
  {
    name: 'qualifier',
    label: 'qualifies a claim',
    leans: 'C',
    phrases:
      'approximately|roughly|estimated|likely|unlikely|may|might|appears to|appear to|seems to|suggests|suggest that|subject to|assuming|' +
      'provided that|however|although|note that|please note|caveat*|to the extent|in principle|preliminary|pending|unless|depending on|' +
      "it depends|at this stage|so far|to my knowledge|as far as i know|not yet|cannot confirm|can't confirm|not certain|uncertain*|" +
      'margin of error|at least|at most|up to|in most cases|typically|generally|provisional*|tentative*|i would suggest|i would recommend|' +
      'on balance|that said|with the caveat|strictly speaking|where possible|as far as possible',
  },
  {
    name: 'risk',
    label: 'weighs risks',
    leans: 'C',
    phrases:
      'risk*|mitigat*|contingenc*|exposure|fail*|safeguard*|caution*|cautious*|careful*|conservative*|prudent*|concern*|issue*|' +
      'problem*|vulnerab*|liabilit*|edge case*|worst case|downside*|trade off*|tradeoff*|implication*|consequence*|safety|hazard*|' +
      'prevent*|avoid*|guard against|fallback|back up|backup*|redundan*|secure|protect*|threat*',
  },
  {
    name: 'order',
    label: 'lays out points in order',
    leans: 'C',
    phrases:
      '^first|^firstly|^second|^secondly|^third|^thirdly|^finally|^lastly|^next|as follows|in summary|to summarise|to summarize|' +
      'attached|see attached|please find attached|section|per the|in accordance with|according to|step #|item #|point #|option #|' +
      'version #|phase #|stage #|page #|appendix|table #|figure #|for reference|for the record|i have listed|listed below|below|above|' +
      'the following|two points|three points|two questions|three questions|two issues|three issues',
  },
  {
    name: 'clarify',
    label: 'asks for detail',
    leans: 'C',
    phrases:
      'could you clarify|can you clarify|please clarify|could you confirm|can you confirm|please confirm|which version|what is the source|' +
      'what assumptions|what method|do we know|have we verified|is this correct|to clarify|clarification|clarify|could you send the|' +
      'can you send the|could you share the|what evidence|on what basis|how was this|how were these|where does this|before we proceed|' +
      'before we commit|before i sign|before signing|i would like to understand|i need to understand|help me understand',
  },
  {
    name: 'exact_figure',
    label: 'gives an exact figure',
    leans: 'C',
    phrases: '#.|# to #|between # and #|# of #|plus or minus|within #%|to the nearest',
  },
];
