/**
 * Splits a byte stream into lines at CRLF, LF or CR (the three line ends Server-Sent Events allow),
 * including when a CRLF pair or a UTF-8 sequence straddles two chunks.
 */
export class LineDecoder {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  /** The previous chunk ended in CR: a LF at the start of the next one belongs to that line end. */
  private pendingCR = false;

  decode(chunk: Uint8Array): string[] {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.pendingCR) {
      if (text.startsWith('\n')) text = text.slice(1);
      this.pendingCR = false;
    }
    return this.split(text);
  }

  /** Lines still buffered at the end of the stream (a last line without a line end). */
  flush(): string[] {
    const rest = this.buffer + this.decoder.decode();
    this.buffer = '';
    this.pendingCR = false;
    return rest === '' ? [] : [rest];
  }

  private split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    let buffered = this.buffer;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      lines.push(buffered + text.slice(start, i));
      buffered = '';
      if (c === 13) {
        if (i + 1 === text.length) this.pendingCR = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = buffered + text.slice(start);
    return lines;
  }
}
