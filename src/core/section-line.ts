/**
 * The listing's section line (issue 22): a list's section header ("ALARM TAB"), written above the
 * first row it heads as `section "ALARM TAB"` — a heading of the rows below, not a value of the
 * row above. Written by perception and read by the reference model (which imports only core).
 */

const SECTION_RE = /^section "((?:[^"\\]|\\.)*)"$/;

/** `label` is already quoted as the listing quotes labels. */
export function writeSectionLine(quotedLabel: string): string {
  return `section ${quotedLabel}`;
}

/** The header's text, or undefined when the line is no section line. */
export function readSectionLine(line: string): string | undefined {
  return SECTION_RE.exec(line.trim())?.[1];
}
