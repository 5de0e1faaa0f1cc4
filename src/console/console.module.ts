// The console edge: serves Brook Console's static build when BROOK_CONSOLE_ENABLED (the default); when it is
// off, no /console route exists (404).
import { DynamicModule, Module } from '@nestjs/common';
import { fileURLToPath } from 'node:url';
import { loadConsoleAssets } from './console-assets.js';
import { CONSOLE_ASSETS, ConsoleController } from './console.controller.js';

/** Where `npm run build` writes the console (vite's outDir), beside this module's compiled folder. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../console-ui/', import.meta.url));

@Module({})
export class ConsoleModule {
  static forRoot(enabled: boolean): DynamicModule {
    if (!enabled) return { module: ConsoleModule };
    return {
      module: ConsoleModule,
      controllers: [ConsoleController],
      providers: [{ provide: CONSOLE_ASSETS, useFactory: () => loadConsoleAssets(CONSOLE_BUILD_DIR) }],
    };
  }
}
