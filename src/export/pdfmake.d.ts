/**
 * The part of pdfmake 0.3's server API that src/export/pdf.ts uses. @types/pdfmake brings the DOM's
 * types into the whole program (its `reference lib="dom"`), which would change what `fetch` and
 * `Headers` mean everywhere else: these few lines follow pdfmake's documented document definition.
 */
declare module 'pdfmake' {
  type Margins = [number, number, number, number];
  export interface Node { headlineLevel?: number }
  export interface Content {
    text?: string;
    style?: string;
    headlineLevel?: number;
    italics?: boolean;
    bold?: boolean;
    fontSize?: number;
    color?: string;
    margin?: Margins;
    alignment?: 'left' | 'right' | 'center';
    noWrap?: boolean;
    fillColor?: string;
    columns?: Content[];
    table?: { headerRows?: number; dontBreakRows?: boolean; widths: Array<number | '*' | 'auto'>; body: Content[][] };
    layout?: Record<string, (i: number) => number | string>;
  }
  export interface DocumentDefinition {
    pageSize: 'A4';
    pageOrientation: 'landscape' | 'portrait';
    pageMargins: Margins;
    language?: string;
    info?: { title?: string; creator?: string; producer?: string };
    defaultStyle?: Content & { font: string };
    styles?: Record<string, Content>;
    content: Content[];
    footer?: (page: number, pages: number) => Content;
    pageBreakBefore?: (node: Node, nodes: { getFollowingNodesOnPage(): Node[] }) => boolean;
  }
  interface FontFiles { normal: string; bold: string; italics: string; bolditalics: string }
  const pdfmake: {
    setFonts(fonts: Record<string, FontFiles>): void;
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    setLocalAccessPolicy(allow: (file: string) => boolean): void;
    createPdf(definition: DocumentDefinition): { getBuffer(): Promise<Buffer> };
  };
  export default pdfmake;
}
