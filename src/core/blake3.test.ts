import { describe, expect, it } from 'vitest';
import { artifactHash } from './blake3.js';

describe('artifactHash', () => {
  it('matches the BLAKE3 reference test vectors', async () => {
    // from the BLAKE3 reference implementation's test_vectors.json (input: bytes i % 251)
    expect(await artifactHash(new Uint8Array(0))).toBe('blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    const one = Uint8Array.from([0]);
    expect(await artifactHash(one)).toBe('blake3:2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213');
    const big = Uint8Array.from({ length: 1024 }, (_, i) => i % 251);
    expect(await artifactHash(big)).toBe('blake3:42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7');
  });
});
