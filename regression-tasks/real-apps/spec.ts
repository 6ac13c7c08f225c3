/**
 * A real-app task's world: a recorded DroidBot graph (../shared/fixtures/droidbot-utg), the state it
 * starts in, and what ends it — one of the recorded states (`end`), and for a question the answer
 * read off one (`answer`). States are named by a prefix of their state_str.
 */
export interface ReplayTaskSpec {
  /** A folder under ../shared/fixtures/droidbot-utg, or an absolute path to a DroidBot output folder. */
  graph: string;
  /** The state the run starts in (default: the graph's first). */
  start?: string;
  /** The run must end (with done) on one of these states (for a question: where its answer is read). */
  end: readonly string[];
  /** A question's answer: `done` must carry text this matches. */
  answer?: RegExp;
}

/** Off-graph accounting of one run on the replay phone: every input, and those the recording did not have. */
export interface ReplayRunStats {
  graph: string;
  /** Inputs the phone received (taps, swipes, keys, typing, launches). */
  actions: number;
  offGraph: number;
  /** What each off-graph input was and why nothing followed (for the report). */
  offGraphInputs: string[];
  /** Moves the recording lacks that Android makes anyway (BACK to the previous activity): counted apart, never hidden. */
  inferred?: number;
  /** The state the run ended on. */
  endState: string;
}
