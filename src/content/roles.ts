/**
 * Role families, read from a job title by keyword. A title is a fact, but what a role brings is
 * only what such roles usually bring: phrases written for a role family say so ("As someone who
 * sells for a living, … is likely to …"), never that the person does a thing (README.md).
 */

/** Role families phrases can be written for, recognised from a job title. */
export const ROLE_FAMILIES = [
  'sales',
  'marketing',
  'engineering',
  'data',
  'design',
  'management',
  'finance',
  'people',
  'operations',
  'support',
] as const;
export type RoleFamily = (typeof ROLE_FAMILIES)[number];

/**
 * First match wins, so the order settles titles that name two families: "Sales Engineer" is
 * sales, "Customer Success Manager" support, "HR Manager" people, "Engineering Manager"
 * management (the advice is about how they lead).
 *
 * `marketing` is work made for an audience: campaigns, and also writing, editing, producing and
 * presenting (a podcast host, a journalist). Its phrases speak of the audience and the message;
 * `design`'s speak of products people use ("designs and makes things", mock-ups), which told a
 * podcast producer about screenshots when "producer", "writer" and "editor" were design words.
 */
const ROLE_PATTERNS: readonly (readonly [RoleFamily, RegExp])[] = [
  ['sales', /\b(sales|account (executive|manager)|business development|bdr|sdr|partnerships?|commercial)\b/],
  ['support', /\b(support|customer success|customer service|client services|service desk|help ?desk|nurse|care)\b/],
  ['people', /\b(hr|human resources|people|talent|recruit(er|ing)?|learning|training|coach|teacher|trainer)\b/],
  ['management', /\b(ceo|cto|cfo|coo|cmo|cio|chief|founder|co-?founder|president|vp|vice president|director|head of|manager|lead|principal|owner)\b/],
  ['marketing', /\b(marketing|brand|growth|content|communications?|pr|social media|seo|copywriter|community|podcast(er)?|host|presenter|broadcaster|journalist|reporter|(?<!technical )writer|editor|producer)\b/],
  ['data', /\b(data|analyst|analytics|scientist|research(er)?|statistician|actuar(y|ial)|economist|laboratory|lab)\b/],
  ['engineering', /\b(engineer(ing)?|developer|programmer|software|devops|sre|architect|technical|technician|it|firmware|qa|tester)\b/],
  ['design', /\b(design(er)?|ux|ui|creative|art director|illustrator)\b/],
  ['finance', /\b(finance|financial|accountant|accounting|controller|treasur(y|er)|auditor|bookkeeper|tax|investment|banker)\b/],
  ['operations', /\b(operations|ops|logistics|supply chain|procurement|project|program(me)?|coordinator|administrator|office|planner|events?)\b/],
];

export function roleFamily(title: string | null | undefined): RoleFamily | null {
  if (typeof title !== 'string') return null;
  const normalised = title.toLowerCase().replace(/[^a-z0-9&/+-]+/g, ' ').trim();
  if (normalised === '') return null;
  for (const [family, pattern] of ROLE_PATTERNS) if (pattern.test(normalised)) return family;
  return null;
}
