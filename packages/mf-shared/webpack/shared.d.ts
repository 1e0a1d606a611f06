export declare const SINGLETONS: readonly string[];
export declare function packageNameOf(request: string): string;
export declare function makeSharedConfig(packageJson: {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}): Record<string, { singleton: true; requiredVersion: string }>;
