import { inflateRawSync } from 'node:zlib';

/**
 * Just enough of an APK to install it on the virtual phone: the zip's central directory, one entry,
 * and the binary AndroidManifest.xml's `package` attribute. Anything else → undefined ("not an APK").
 */

function entry(zip: Buffer, name: string): Buffer | undefined {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return undefined;
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let k = 0; k < count && p + 46 <= zip.length; k++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) return undefined;
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const skip = nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    if (zip.toString('utf8', p + 46, p + 46 + nameLen) === name) {
      if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) return undefined;
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      return undefined;
    }
    p += 46 + skip;
  }
  return undefined;
}

function strings(xml: Buffer, at: number): string[] {
  const headerSize = xml.readUInt16LE(at + 2);
  const count = xml.readUInt32LE(at + 8);
  const utf8 = (xml.readUInt32LE(at + 16) & 0x100) !== 0;
  const start = at + xml.readUInt32LE(at + 20);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = start + xml.readUInt32LE(at + headerSize + i * 4);
    if (utf8) {
      p += (xml[p] ?? 0) & 0x80 ? 2 : 1; // UTF-16 length
      let len = xml[p] ?? 0;
      if (len & 0x80) len = ((len & 0x7f) << 8) | (xml[++p] ?? 0);
      p++;
      out.push(xml.toString('utf8', p, p + len));
    } else {
      let len = xml.readUInt16LE(p);
      if (len & 0x8000) {
        len = ((len & 0x7fff) << 16) | xml.readUInt16LE(p + 2);
        p += 2;
      }
      out.push(xml.toString('utf16le', p + 2, p + 2 + len * 2));
    }
  }
  return out;
}

/** The `package` of a binary AndroidManifest.xml. */
export function manifestPackage(xml: Buffer): string | undefined {
  if (xml.length < 8 || xml.readUInt16LE(0) !== 0x0003) return undefined;
  let pool: string[] = [];
  let p = xml.readUInt16LE(2);
  while (p + 8 <= xml.length) {
    const type = xml.readUInt16LE(p);
    const size = xml.readUInt32LE(p + 4);
    if (size < 8) return undefined;
    if (type === 0x0001) pool = strings(xml, p);
    if (type === 0x0102 && pool[xml.readUInt32LE(p + 20)] === 'manifest') {
      const attrStart = xml.readUInt16LE(p + 24);
      const attrSize = xml.readUInt16LE(p + 26);
      const n = xml.readUInt16LE(p + 28);
      for (let i = 0; i < n; i++) {
        const a = p + 16 + attrStart + i * attrSize;
        if (pool[xml.readUInt32LE(a + 4)] === 'package') return pool[xml.readUInt32LE(a + 8)];
      }
      return undefined;
    }
    p += size;
  }
  return undefined;
}

/** The package name of an APK's bytes, or undefined when they are not an APK. */
export function apkPackage(apk: Buffer): string | undefined {
  try {
    const xml = entry(apk, 'AndroidManifest.xml');
    return xml ? manifestPackage(xml) : undefined;
  } catch {
    return undefined;
  }
}
