/**
 * How a screenshot is encoded for the model: JPEG is small and every vision API takes it; PNG is
 * for a reader that opens only PNG (the relay's players) or a provider that wants it. The data
 * URL's media type is derived from the bytes, so it cannot disagree with them.
 */

export const IMAGE_FORMATS = ['jpeg', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export function isImageFormat(s: string): s is ImageFormat {
  return (IMAGE_FORMATS as readonly string[]).includes(s);
}

/** The media type the bytes are, by their signature (PNG, JPEG), or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** A data: URL whose media type is what the bytes are. */
export function imageDataUrl(bytes: Uint8Array): string {
  const type = sniffImageType(bytes);
  if (!type) throw new Error('imageDataUrl: the bytes are neither PNG nor JPEG');
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}
