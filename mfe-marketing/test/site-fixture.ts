import path from 'node:path';
import { compileContent, siteRoutes } from '../src/content/compile';
import { SAMPLE_IDS, type DemoSample, type PageContent, type SiteIndex } from '../src/content/schema';
import { primeSiteData } from '../src/content/site-data';

/** The real content files with stand-in demo images (the studio engine's results are made by the build). */
export function primeSiteFixture(): { pages: PageContent[]; index: SiteIndex } {
  const pages = compileContent(path.join(__dirname, '..', 'content'));
  const image = (file: string) => ({ file, width: 800, height: 800 });
  const samples: DemoSample[] = SAMPLE_IDS.map((id) => ({
    id,
    slot: id,
    shows: `${id} photo`,
    photo: image(`demo/${id}.webp`),
    thumbnail: image(`demo/${id}-thumb.webp`),
    results: [0, 1, 2, 3, 4].map((result) => image(`demo/${id}-result-${result}.webp`)),
    credit: `Photographer of ${id} (Unsplash License)`,
  }));
  const index: SiteIndex = { siteUrl: 'https://productgen.example', routes: siteRoutes(pages), samples };
  primeSiteData({ assetBase: '/mfe/marketing/1.0.0/', index });
  for (const page of pages) primeSiteData({ page });
  return { pages, index };
}
