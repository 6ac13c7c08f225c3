/**
 * Prompt token counting for the reference model's `usage`, with the o200k tokenizer (GPT-4o
 * family) when js-tiktoken is installed, else a chars/4 estimate. Loaded lazily (~1 s).
 */
type Encoder = { encode(text: string): number[] };
let encoder: Promise<Encoder | undefined> | undefined;

async function load(): Promise<Encoder | undefined> {
  try {
    const lite = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
    return new lite.Tiktoken(ranks);
  } catch {
    return undefined;
  }
}

export async function countTokens(text: string): Promise<number> {
  encoder ??= load();
  const enc = await encoder;
  return enc ? enc.encode(text).length : Math.ceil(text.length / 4);
}
