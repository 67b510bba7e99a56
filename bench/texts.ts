/** Original texts for the benchmarks (never part of any training data). */

const PARAGRAPHS = [
  'This week was busier than I expected, but in a good way. On Monday I sat down with the new hires and walked them through how our release process works, from the first sketch on the whiteboard to the moment a customer sees the change. I like doing these sessions because people ask the questions that everyone else stopped asking years ago, and more than once they have found a step that nobody could explain. We wrote those down and I promised to come back with answers by Friday. I kept that promise, mostly, and the two open points are now on the board with names next to them.',
  'On Tuesday the plan fell apart for a few hours when the payment provider changed a setting without telling anyone. I will admit I was frustrated, and I said so in the channel, but then we split the problem into pieces and it went quickly. Priya traced the failing calls, Tom wrote to the provider, and I kept the support team informed so that they could answer customers honestly. By the evening everything worked again. I think the most useful thing we did was to write a short note about what happened while it was still fresh, because in a month we will have forgotten the details.',
  'Wednesday and Thursday were quieter, which gave me time to think about the roadmap for next quarter. I tend to worry that we say yes to too many things at once, and I would rather finish three projects properly than start eight and abandon half of them. So I made a list of everything people have asked for, grouped it by the problem it solves, and estimated roughly how much work each group would take. It is not perfect, and I am sure some of the numbers are wrong, but it makes the trade-offs visible. I shared it with the team and asked them to tell me where I am mistaken.',
  'Outside work, I have been trying to cook more instead of ordering food every evening. My sister gave me a book of simple recipes for her birthday, which is a joke in our family because she is the one who cannot cook. I have made the lentil soup three times now and it gets a little better each time. On Saturday a few friends came over, we ate on the balcony, and the conversation went on long after the food was gone. I felt relaxed for the first time in weeks. We talked about travelling together next summer, maybe to the mountains, although nobody wants to be the one who books the cabins.',
  'Looking back, I notice that the days that went best were the ones where I had a clear plan in the morning and still left room for whatever came up. When I try to control every hour I get tense and snap at people, and when I have no plan at all I drift from one message to the next without finishing anything. Next week I want to block two mornings for focused work, keep my calendar open in the afternoons for the team, and stop checking email after nine in the evening. I also want to thank Priya properly, because she stayed late on Tuesday without being asked and never mentioned it.',
];

/** About 1,000 words: the paragraphs, repeated until long enough. */
export const BENCH_TEXT_1000 = (() => {
  const words: string[] = [];
  while (words.length < 1000) for (const p of PARAGRAPHS) words.push(...p.split(/\s+/));
  return words.slice(0, 1000).join(' ');
})();

/**
 * A short labelled profile of about 117 words, as a client would send to GET /v1/analysis/text:
 * each label on its own line, so the prose between them is read (a label runs to the end of its
 * line; with all of it on one line the title swallowed the prose and the answer was
 * `text_too_short`, so the bench measured the no-personality answer). http.ts checks that it
 * yields a personality.
 */
export const BENCH_PROFILE_TEXT = `Title: Operations Lead\n${PARAGRAPHS[0] ?? ''}\nSkills: planning, hiring, incident response.`;
