/** Tools that end a run instead of acting on the phone: the executor dispatches nothing for them. */
export const TERMINAL_TOOLS: ReadonlySet<string> = new Set(['done', 'ask_user', 'infeasible']);
