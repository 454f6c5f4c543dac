import { useState } from 'preact/hooks';

/** Copies `text` (a digest to pin) to the clipboard and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
    } catch {
      prompt('Copy the digest:', text);
    }
  };
  return (
    <button type="button" class="copy" aria-label={label} onClick={copy}>
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}
