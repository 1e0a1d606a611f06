/** One model call: a float32 NCHW input of the given shape → the chosen output's data and shape. */
export type RunModel = (
  input: Float32Array,
  dims: readonly number[],
) => Promise<{ data: Float32Array; dims: readonly number[] }>;
