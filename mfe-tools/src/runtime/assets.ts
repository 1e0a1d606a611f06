// Where the tools' models and samples are served from: by default the `tool-assets/` folder next to this
// microfrontend's own files on the web origin (webpack copies them there at build); TOOLS_ASSETS_URL at build
// time points elsewhere (another path or host of the operator's), never a public CDN.
declare const __webpack_public_path__: string | undefined;
/** Replaced at build by webpack's DefinePlugin (webpack.config.js). */
declare const process: { env: { TOOLS_ASSETS_URL?: string; TOOLS_MODEL_SHA256?: Partial<Record<string, string>> } };

const configured = process.env.TOOLS_ASSETS_URL ?? '';

export function toolAssetUrl(relativePath: string): string {
  if (configured) return `${configured.replace(/\/$/, '')}/${relativePath}`;
  const base = typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : '/';
  return new URL(`tool-assets/${relativePath}`, new URL(base, window.location.href)).href;
}

export const MODEL_FILES = {
  segmentation: 'models/u2netp-int8.onnx',
  upscaler: 'models/realesr-general-x4v3-int8-static.onnx',
} as const;

export type ToolModel = keyof typeof MODEL_FILES;

/** The sha256 of each model file as built (webpack.config.js); missing outside a webpack build (unit tests). */
export const MODEL_SHA256: Partial<Record<ToolModel, string>> = process.env.TOOLS_MODEL_SHA256 ?? {};
