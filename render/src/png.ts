/**
 * `renderPng`: an SVG picture as PNG bytes, through resvg, with the fonts shipped in render/fonts
 * only (no system fonts), so a picture comes out the same on every machine.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

export interface PngOptions {
  /** Width of the image in pixels; the height follows. Default: the SVG's own width. */
  readonly width?: number;
}

/**
 * render/fonts, found from this module: dist/render/src/ when built, render/src/ when run from
 * the sources.
 */
export function fontDir(): string {
  for (const rel of ['../../../render/fonts/', '../fonts/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}DejaVuSans.ttf`)) return dir;
  }
  throw new Error('render/fonts/DejaVuSans.ttf not found beside the render module');
}

export const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] as const;

export function renderPng(svg: string, options: PngOptions = {}): Uint8Array {
  const dir = fontDir();
  const resvg = new Resvg(svg, {
    font: {
      fontFiles: FONT_FILES.map((f) => dir + f),
      loadSystemFonts: false,
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
    fitTo: options.width ? { mode: 'width', value: Math.round(options.width) } : { mode: 'original' },
    logLevel: 'off',
  });
  const png = resvg.render().asPng();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
