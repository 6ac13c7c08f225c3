/**
 * What kind of goal a sentence is. A question ("what is…", "告诉我…") wants an answer read off the
 * phone; any other goal is a task whose `done` text is a summary, not an answer. Quoted text ("Dinner
 * at 7?") is content to send, not the user's question.
 */
const QUESTION_RE = /[?？]|\b(which|what|how many|how much|tell me)\b|什么|多少|哪|告诉我/i;

export function asksQuestion(goal: string): boolean {
  const unquoted = goal.replace(/"[^"]*"|“[^”]*”|「[^」]*」/g, '');
  return QUESTION_RE.test(unquoted);
}
