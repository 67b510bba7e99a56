/**
 * Rapport's word classes: the habits of word choice that psychology links to
 * personality (self-focus, social reach, emotion, hedging, striving, ...).
 * Written for Rapport; edit freely, but bump LEXICON_VERSION and retrain, because the
 * model's weights are tied to these lists.
 *
 * Entries are space-separated. An entry ending in `*` is a stem: it matches every word
 * that begins with it ("worr*" matches worry, worried, worrying). A word may belong to
 * several classes (e.g. "hate" is both negative emotion and anger).
 */
export const LEXICON_VERSION = 1;

export const LEXICON: ReadonlyArray<readonly [name: string, entries: string]> = [
  // Pronouns: who the writer talks about.
  ['i', "i me my mine myself i'm i've i'll i'd im ive"],
  ['we', "we us our ours ourselves we're we've we'll we'd lets let's"],
  ['you', "you your yours yourself yourselves you're you've you'll you'd ya ur u"],
  ['shehe', "she her hers herself he him his himself she's he's she'd he'd she'll he'll"],
  ['they', "they them their theirs themselves they're they've they'll they'd"],
  ['impersonal', "it its it's itself this that these those something anything everything nothing someone anyone everyone somebody anybody nobody whatever"],
  ['article', 'a an the'],

  // Hedges and certainty: how firmly the writer commits.
  ['hedge', 'maybe perhaps possibly probably apparently seemingly somewhat sort kind guess suppose presumably likely unlikely might may could seem* appear* wonder wondering wondered unsure uncertain* doubt* hopefully kinda sorta roughly approximately almost'],
  ['certainty', 'always never definitely certainly surely absolutely clearly obviously completely totally entirely truly really indeed undoubtedly exactly forever sure confident* guarantee* undeniabl* essential* fundamental* must'],
  ['tentative', 'if or whether depend* option* alternative* either neither hope hoped hopes hopeful* hoping try* trying attempt* possib* question* unclear'],
  ['negation', "no not never none nor nothing nobody nowhere neither don't doesn't didn't isn't aren't wasn't weren't can't cannot couldn't won't wouldn't shouldn't haven't hasn't hadn't ain't dont cant wont didnt doesnt isnt wasnt"],

  // People and relationships.
  ['social', 'talk* said say* tell* told ask* call* chat* convers* friend* people person persons meet* met party parties share* sharing together everybody others group* crowd* team* social* visit* invit* hug hugs hugged hugging introduc* listen* advice advis* help* discuss* public'],
  ['family', 'mom mommy mother* dad daddy father* parent* brother* sister* sibling* family families son sons daughter* aunt* uncle* cousin* grandm* grandp* grandfather* grandmother* niece* nephew* wife husband* baby babies kid kids child* relative relatives'],
  ['friends', 'friend* buddy buddies pal pals roommate* roomie* suitemate* neighbor* neighbour* companion* partner* boyfriend* girlfriend* bf gf bff dude dudes guys mate mates acquaint* classmate*'],
  ['romance', 'love* lover* dating date dated kiss* boyfriend* girlfriend* relationship* crush* romanc* romantic* heart* miss missed missing sweetheart darling honey marry married marriage wedding'],

  // Feelings.
  ['posemo', 'happy happier happiest happily happiness joy* glad* love* loving like liked likes nice good great awesome wonderful fantastic amazing excellent beautiful fun funny enjoy* excit* laugh* smil* hope hoped hopes hopeful* hoping cool best better pleas* delight* proud cheer* fine kind kindness sweet thank* grateful lucky comfort* calm* relax* peace* fortunate* interest* win winning won success* positive* yay'],
  ['negemo', 'sad* unhapp* bad worse worst terribl* horribl* awful hate* hating dislike* hurt* pain pains painful cry cries crying cried tears lonel* lonely afraid fear* scare* scary worr* nervous* anxi* stress* upset* angry anger* mad annoy* frustrat* disappoint* depress* miser* sick* suck* ugly stupid dumb bored boring boredom tired* lost problem* fail* guilt* shame* embarrass* jealous* regret* sorry'],
  ['anger', 'hate* hating angry anger* mad furious rage* pissed annoy* irritat* frustrat* resent* hostil* fight* argu* yell* scream* kill* damn* hell stupid idiot* jerk* rude* mean enemy* attack* bitter* offend* disgust*'],
  ['anxiety', 'worr* nervous* anxi* afraid fear* scare* scary panic* tense* tension* stress* uneasy uncomfortabl* insecur* overwhelm* dread* terrif* frighten* confus* doubt* unsure restless* jitter* shaky'],
  ['sadness', 'sad* cry cries cried crying tears lonel* alone miss missed missing depress* grief griev* sorrow* unhapp* hopeless* heartbr* gloom* miser* lost loss* empty hurt* mourn* regret* disappoint*'],

  // Thinking.
  ['insight', 'think* thought* know* knew realiz* realis* understand* understood learn* believ* consider* idea* figur* mean meaning* reason* remember* recogni* decid* decision* notice* aware* conclude* discover* sense* feel feeling* felt wonder wondering wondered imagin* opinion* '],
  ['causation', 'because cause* caus* effect* result* reason* why since therefore thus hence consequen* depend* lead* led influenc* make makes made affect* due'],
  ['discrepancy', 'should would could ought need* want* wish* hope hoped hopes hopeful* hoping rather expect* supposed wanna gotta'],
  ['exclusive', 'but except without although though however yet unless whereas instead besides exclud* apart rather'],
  ['inclusive', 'and with include* includ* also plus both along together too as'],
  ['quantifier', 'all some many much more most few lot lots several each every any little bit less least enough plenty whole half'],

  // Striving and daily life.
  ['achievement', 'achiev* accomplish* goal* success* succeed* win wins winner* winning won effort* work* hard harder try* tried best better improv* ambiti* determin* master* complet* finish* earn* excel* compet* champion* strive* strong* skill* abilit* able capab* challeng* progress* perform* grade* plan* focus* motivat* prepar*'],
  ['work', 'work* job* class* classes school* college* universit* study* studi* homework assign* essay* paper* exam* test* quiz* grade* professor* teacher* lecture* course* semester* major* degree* project* career* office* boss* employ* business* meeting* deadline* read reading'],
  ['leisure', 'party parties game* play* playing played sport* football basketball soccer tennis golf swim* movie* film* tv television music song* band* concert* danc* sing sings singing singer* sang guitar* video* fun hobby* vacation* relax* shop* beach* bar bars club* drink* beer* weekend* rest'],
  ['home', 'home house* apartment* room* dorm* bed* bedroom* kitchen* couch* yard* garden* clean* laundry* dinner* move* moved'],
  ['money', 'money cash dollar* pay* paid buy* bought spend* spent cost* price* afford* expensive cheap* bill* rent* loan* debt* budget* earn* salary* bank* credit* save* saving*'],
  ['religion', 'god* lord* jesus christ* church* pray* prayer* faith* bless* bible* relig* spiritual* soul* heaven* sin sins sinful worship* holy* angel*'],
  ['death', 'die dies dying died dying dead death* kill* funeral* grave graves suicid* murder* coffin* mortal* bury buried'],

  // The body and the senses.
  ['body', 'body bodies head heads face faces eye* hand hands hair* arm arms leg legs feet foot heart* stomach* skin* mouth* neck* teeth tooth* finger* shoulder* chest* brain* nose* ear ears lips'],
  ['health', 'sick* ill illness* health* doctor* hospital* medic* pill* disease* flu cold hurt* ache* pain pains painful headache* sore* injur* tired* exhaust* sleep* asleep nap* diet* exercis* gym weight fat'],
  ['sexual', 'sex* sexy horny naked nude kiss* hug hugs hugged hugging touch* lust* passion* virgin* gay lesbian* breast* condom* pregnan* intimat*'],
  ['ingest', 'eat* ate food* hungry hunger drink* drank drunk beer* wine* alcohol* pizza* coffee* lunch* dinner* breakfast* snack* meal* cook* taste* candy chocolate* starv* smok* cigarette*'],
  ['perception', 'see seeing saw seen look* watch* view* hear hears hearing heard listen* sound* feel* felt touch* smell* taste* notice* observ* color* colour* loud* quiet* bright* dark*'],
  ['motion', 'go going went gone come coming came move* moving walk* run* running ran drive* drove driving ride* travel* arriv* leav* left fly* flew trip* drag* rush* hurry*'],

  // Time.
  ['past', "was were had did been used ago yesterday before earlier past previous* former* remember* last once wasn't weren't didn't hadn't"],
  ['present', "is are am do does now today currently present* nowadays right i'm it's isn't aren't doesn't"],
  ['future', "will shall gonna going tomorrow soon later future* next eventually someday plan* i'll we'll you'll won't upcoming"],
  ['time', 'time* hour* minute* second* day* week* month* year* morning* night* evening* noon tonight weekend* early late* while until after when then often sometimes usually again'],

  // Talk-like writing.
  ['swear', 'damn* hell fuck* shit* crap* ass asshole* bitch* bastard* piss* suck* sucks freakin* frickin* dang darn bloody'],
  ['filler', 'um umm uh uhh hmm hm er erm like well anyway anyways basically actually literally whatever okay ok oh ah yeah yea yep nope wow huh duh lol haha'],
  ['assent', 'yes yeah yep yea ok okay agree* alright sure absolutely right indeed exactly cool'],
  ['inhibition', 'stop* block* constrain* control* restrain* restrict* hold* held avoid* prevent* refrain* careful* caution* patient* wait* hesitat* protect* deny* resist*'],
  ['number_word', 'one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million first second third half dozen'],
];
