// AI campaign drafts: the chat request that asks the platform's AI for N posts from one brief, the
// token estimate shown before it is sent, and the reading of the answer back into N texts,
// tolerant of the ways models number, bullet or separate a list. Pure; runs in every process, so
// the renderer can show the estimate as the user types.

export const CAMPAIGN_TONES = ['friendly', 'professional', 'playful', 'urgent'] as const;
export type CampaignTone = (typeof CAMPAIGN_TONES)[number];
export const MAX_CAMPAIGN_POSTS = 14;
/** Leaves room for the instructions within the platform's 20,000 characters per message. */
export const MAX_BRIEF_LENGTH = 16_000;

export interface CampaignBrief {
  brief: string;
  count: number;
  tone: CampaignTone;
  hashtags: boolean;
  /** The bot the posts are for, when known: its channel and name shape the wording. */
  channel?: string | null;
  botName?: string | null;
}

export interface ChatTurn {
  role: 'system' | 'user';
  content: string;
}

export interface TokenEstimate {
  prompt: number;
  /** Typical completion: `count` posts of about 180 characters. */
  completion: number;
  total: number;
  /** The completion cap sent as max_tokens: the most the call can use is prompt + maxTokens. */
  maxTokens: number;
}

/** A post of up to ~300 characters is ~75 tokens at 4 characters a token, plus its number. */
const MAX_TOKENS_PER_POST = 90;
/** Room for a stray introduction or closing line, so the last post is not the one cut off. */
const SPARE_TOKENS = 60;
const TYPICAL_TOKENS_PER_POST = 45;
/** The chat framing each message costs on top of its text (what the reference server counts). */
const TOKENS_PER_MESSAGE = 4;

/**
 * Tokens in a text, estimated at 4 characters a token: what English averages in common
 * tokenizers, and exactly what the reference server counts.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The conversation that asks for the posts. The instruction and the count open the user's message
 * and the brief follows "about", so the request reads the same to a real model and to the
 * reference server, which takes its task from the message's first cue and its topic from "about".
 */
export function campaignMessages(request: CampaignBrief): ChatTurn[] {
  const { count, tone, hashtags } = request;
  const where = [
    request.channel ? ` on ${request.channel}` : '',
    request.botName ? ` as "${request.botName}"` : '',
  ].join('');
  const system = [
    `You write social media posts for a small business${where}, in a ${tone} tone.`,
    `Each post stands on its own and is under 280 characters${hashtags ? ', ending with two or three hashtags' : ', without hashtags'}.`,
    `Answer with exactly ${count} ${count === 1 ? 'post' : 'posts'} as a numbered list (1. to ${count}.), one post per item, with nothing before or after the list.`,
  ].join(' ');
  const user = `Write ${count} social media ${count === 1 ? 'post' : 'posts'} about ${request.brief}${hashtags ? '\n\nEnd each post with two or three hashtags.' : ''}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export function campaignMaxTokens(count: number): number {
  return count * MAX_TOKENS_PER_POST + SPARE_TOKENS;
}

/** What the request will likely cost, before it is sent (see TokenEstimate). */
export function estimateCampaign(request: CampaignBrief): TokenEstimate {
  const prompt = campaignMessages(request).reduce(
    (sum, message) => sum + estimateTokens(message.content) + TOKENS_PER_MESSAGE,
    0,
  );
  const completion = request.count * TYPICAL_TOKENS_PER_POST;
  return {
    prompt,
    completion,
    total: prompt + completion,
    maxTokens: campaignMaxTokens(request.count),
  };
}

const BOLD = String.raw`(?:\*\*|__)?`;
/**
 * A numbered item's label: "1.", "2)", "3:", "4 -", "**5.**", "Post 6:", "**Post 7**", "#8 –".
 * The number is group 1; the item's text follows the match.
 */
const NUMBERED = new RegExp(
  String.raw`^\s*(?:[-*•]\s+)?${BOLD}(?:post\s*#?\s*|#)?(\d{1,2})${BOLD}(?:(?:[.):]|\s*[-–—])${BOLD}(?=\s|$)|\s*$)\s*`,
  'i',
);
const BULLET = /^\s*(?:[-*•–]|\d{1,2}\/\d{1,2})\s+/;
const SEPARATOR = /^\s*(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$/;

/** Items starting at the lines `start` finds a label on (it answers the label's length), each running to the next. */
function itemsFrom(lines: string[], start: (line: string) => number | null): string[][] {
  const items: string[][] = [];
  for (const line of lines) {
    const at = start(line);
    if (at !== null) items.push([line.slice(at)]);
    else items.at(-1)?.push(line);
  }
  return items;
}

/** Numbered items, counting 1, 2, 3 …, so a list inside a post ("2. Bring a friend") stays in it. */
function numberedItems(lines: string[]): string[][] {
  let expected = 1;
  return itemsFrom(lines, (line) => {
    const match = NUMBERED.exec(line);
    if (!match || Number(match[1]) !== expected) return null;
    expected++;
    return match[0].length;
  });
}

function bulletItems(lines: string[]): string[][] {
  return itemsFrom(lines, (line) => {
    if (SEPARATOR.test(line)) return null;
    const match = BULLET.exec(line);
    return match ? match[0].length : null;
  });
}

/** Paragraphs (blank lines or rules between them), without an introduction such as "Here are 5 posts:". */
function paragraphItems(lines: string[]): string[][] {
  const items: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '' || SEPARATOR.test(line)) items.push([]);
    else items.at(-1)?.push(line);
  }
  const paragraphs = items.filter((item) => item.length > 0);
  if (paragraphs.length > 1 && /:\s*$/.test(paragraphs[0]?.at(-1) ?? '')) paragraphs.shift();
  return paragraphs;
}

const QUOTES: [string, string][] = [
  ['"', '"'],
  ['“', '”'],
  ['«', '»'],
  ["'", "'"],
];

/** One item's text: lines trimmed, its label's leftovers and any quotes around the whole removed. */
function cleanItem(lines: string[], last: boolean): string {
  const kept = lines.map((line) => line.trimEnd());
  while (kept.length > 0 && kept[0]?.trim() === '') kept.shift();
  // After the last item, a blank line starts the model's closing remark, not more of the post.
  const end = last ? kept.findIndex((line) => line.trim() === '') : -1;
  let text = (end === -1 ? kept : kept.slice(0, end)).join('\n').trim();
  const bold = /^(\*\*|__)(.+)\1$/s.exec(text);
  if (bold?.[2]) text = bold[2].trim();
  for (const [open, close] of QUOTES) {
    if (text.length > 1 && text.startsWith(open) && text.endsWith(close))
      text = text.slice(open.length, -close.length).trim();
  }
  return text;
}

/**
 * The posts in a model's answer, at most `count`: a numbered list when there is one, else a
 * bulleted one, else paragraphs. When the answer was cut at max_tokens (`truncated`), its last
 * post is incomplete and left out.
 */
export function parseCampaignReply(reply: string, count: number, truncated = false): string[] {
  const lines = reply
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*```/.test(line));
  const numbered = numberedItems(lines);
  const bulleted = numbered.length > 0 ? numbered : bulletItems(lines);
  const items = bulleted.length > 0 ? bulleted : paragraphItems(lines);
  const texts = items
    .map((item, index) => cleanItem(item, index === items.length - 1))
    .filter((text) => text !== '');
  if (truncated && texts.length <= count) texts.pop();
  return texts.slice(0, count);
}
