import { boxMean } from './box-filter';

/**
 * He, Sun and Tang's guided filter with a colour guide (ECCV 2010): smooths `input` (a mask upscaled from the
 * model's 320², blurry at full size) while making its edges follow the edges of the colour image, so a cut-out
 * has no halo of the old background. `rgba` is the guide (8-bit RGBA); `input` is one float per pixel.
 */
export function guidedFilter(
  rgba: Uint8ClampedArray | Uint8Array,
  input: Float32Array,
  width: number,
  height: number,
  radius: number,
  epsilon: number,
): Float32Array {
  const n = width * height;
  const channels = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i += 1) {
    channels[0][i] = rgba[4 * i] / 255;
    channels[1][i] = rgba[4 * i + 1] / 255;
    channels[2][i] = rgba[4 * i + 2] / 255;
  }
  const mean = (values: Float32Array) => boxMean(values, width, height, radius);
  const product = (a: Float32Array, b: Float32Array) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 1) out[i] = a[i] * b[i];
    return out;
  };
  const [r, g, b] = channels;
  const meanR = mean(r);
  const meanG = mean(g);
  const meanB = mean(b);
  const meanP = mean(input);
  const covRP = mean(product(r, input));
  const covGP = mean(product(g, input));
  const covBP = mean(product(b, input));
  const varRR = mean(product(r, r));
  const varRG = mean(product(r, g));
  const varRB = mean(product(r, b));
  const varGG = mean(product(g, g));
  const varGB = mean(product(g, b));
  const varBB = mean(product(b, b));

  const aR = new Float32Array(n);
  const aG = new Float32Array(n);
  const aB = new Float32Array(n);
  const offset = new Float32Array(n);
  for (let i = 0; i < n; i += 1) {
    const mr = meanR[i];
    const mg = meanG[i];
    const mb = meanB[i];
    const mp = meanP[i];
    const cr = covRP[i] - mr * mp;
    const cg = covGP[i] - mg * mp;
    const cb = covBP[i] - mb * mp;
    // Σ + εI, symmetric 3×3, inverted through its adjugate.
    const s11 = varRR[i] - mr * mr + epsilon;
    const s12 = varRG[i] - mr * mg;
    const s13 = varRB[i] - mr * mb;
    const s22 = varGG[i] - mg * mg + epsilon;
    const s23 = varGB[i] - mg * mb;
    const s33 = varBB[i] - mb * mb + epsilon;
    const i11 = s22 * s33 - s23 * s23;
    const i12 = s13 * s23 - s12 * s33;
    const i13 = s12 * s23 - s13 * s22;
    const i22 = s11 * s33 - s13 * s13;
    const i23 = s13 * s12 - s11 * s23;
    const i33 = s11 * s22 - s12 * s12;
    const determinant = s11 * i11 + s12 * i12 + s13 * i13;
    const ar = (i11 * cr + i12 * cg + i13 * cb) / determinant;
    const ag = (i12 * cr + i22 * cg + i23 * cb) / determinant;
    const ab = (i13 * cr + i23 * cg + i33 * cb) / determinant;
    aR[i] = ar;
    aG[i] = ag;
    aB[i] = ab;
    offset[i] = mp - ar * mr - ag * mg - ab * mb;
  }
  const meanAR = mean(aR);
  const meanAG = mean(aG);
  const meanAB = mean(aB);
  const meanOffset = mean(offset);
  const output = new Float32Array(n);
  for (let i = 0; i < n; i += 1) {
    output[i] = meanAR[i] * r[i] + meanAG[i] * g[i] + meanAB[i] * b[i] + meanOffset[i];
  }
  return output;
}
