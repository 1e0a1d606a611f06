import { useState } from 'react';
import { Button, ProgressBar, TextField } from '@productgen/ui-kit';
import {
  clampMaxDimension,
  DEFAULT_MAX_DIMENSION,
  fitWithin,
  MAX_DIMENSION,
  MIN_DIMENSION,
  outputNames,
  type Naming,
} from '../../algorithms/resize-plan';
import { decodeImage } from '../../image/canvas';
import { ToolPage } from '../../layout/ToolPage';
import { ToolUploadArea } from '../../layout/ToolUploadArea';
import styles from '../../layout/ToolPage.module.css';
import { TEXTS } from '../../texts';
import { resizeAndDownload } from './resize-images';

interface Picture {
  file: File;
  bitmap: ImageBitmap;
  preview: string;
}

const HOW_TO = [
  'Choose one or more images, or drop them on the upload area.',
  'Set the maximum dimension: the longer side of every image is resized to it, keeping the proportions.',
  'Keep the original file names or give a base name; files are numbered _1, _2 and so on.',
  'Download: up to three images save one by one, more arrive as one zip file. Nothing leaves your device.',
];

export function ResizerPage() {
  const [pictures, setPictures] = useState<Picture[]>([]);
  const [maxInput, setMaxInput] = useState(String(DEFAULT_MAX_DIMENSION));
  const [namingKind, setNamingKind] = useState<Naming['kind']>('original');
  const [baseName, setBaseName] = useState('');
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState('');

  const maxDimension = clampMaxDimension(Number(maxInput));
  const naming: Naming = namingKind === 'custom' ? { kind: 'custom', baseName } : { kind: 'original' };
  const names = outputNames(
    pictures.map((picture) => picture.file.name),
    naming,
  );
  const working = done !== null;

  const addFiles = async (files: File[]) => {
    setError('');
    const added: Picture[] = [];
    for (const file of files) {
      try {
        added.push({ file, bitmap: await decodeImage(file), preview: URL.createObjectURL(file) });
      } catch {
        setError(`${file.name} could not be read as an image.`);
      }
    }
    setPictures((current) => [...current, ...added]);
  };

  const download = async () => {
    setDone(0);
    setError('');
    try {
      await resizeAndDownload(
        pictures.map((picture, index) => ({
          bitmap: picture.bitmap,
          ...fitWithin(picture.bitmap.width, picture.bitmap.height, maxDimension),
          name: names[index],
        })),
        setDone,
      );
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setDone(null);
    }
  };

  const clear = () => {
    for (const picture of pictures) URL.revokeObjectURL(picture.preview);
    setPictures([]);
  };

  return (
    <ToolPage path="/image-resizer" sample="resizer" howTo={HOW_TO}>
      <ToolUploadArea multiple onFiles={(files) => void addFiles(files)} disabled={working} />
      <div className={styles.controls}>
        <TextField
          label="Maximum dimension (px)"
          type="number"
          min={MIN_DIMENSION}
          max={MAX_DIMENSION}
          value={maxInput}
          onChange={(event) => setMaxInput(event.currentTarget.value)}
          onBlur={() => setMaxInput(String(maxDimension))}
        />
        <fieldset className={styles.controls}>
          <legend>File names</legend>
          <label>
            <input
              type="radio"
              name="naming"
              checked={namingKind === 'original'}
              onChange={() => setNamingKind('original')}
            />{' '}
            Original names
          </label>
          <label>
            <input
              type="radio"
              name="naming"
              checked={namingKind === 'custom'}
              onChange={() => setNamingKind('custom')}
            />{' '}
            Custom base name
          </label>
          {namingKind === 'custom' && (
            <TextField
              label="Base name"
              value={baseName}
              onChange={(event) => setBaseName(event.currentTarget.value)}
            />
          )}
        </fieldset>
      </div>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      {pictures.length > 0 && (
        <>
          <ul className={styles.results} aria-label="Images to resize">
            {pictures.map((picture, index) => {
              const target = fitWithin(picture.bitmap.width, picture.bitmap.height, maxDimension);
              return (
                <li key={picture.preview} className={styles.card}>
                  <img src={picture.preview} alt={picture.file.name} />
                  <span className={styles.cardName}>{names[index]}</span>
                  <span className={styles.cardMeta} data-testid="resize-preview">
                    {picture.bitmap.width} × {picture.bitmap.height} → {target.width} × {target.height} px
                  </span>
                </li>
              );
            })}
          </ul>
          {working && (
            <ProgressBar
              value={done ?? 0}
              max={pictures.length}
              label={TEXTS.processing}
              valueText={`${done} of ${pictures.length}`}
            />
          )}
          <div className={styles.controls}>
            <Button onClick={() => void download()} loading={working} disabled={working}>
              {working ? TEXTS.processing : pictures.length > 3 ? 'Download all as zip' : 'Download'}
            </Button>
            <Button variant="secondary" onClick={clear} disabled={working}>
              Clear
            </Button>
          </div>
        </>
      )}
    </ToolPage>
  );
}
