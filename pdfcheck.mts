import { loadModel } from './src/personality/text/index.ts';
import { readProfessionalCorpus } from './training/professional.ts';
import { textAndPdf } from './training/eval-professional.ts';
const model = loadModel();
const resumes = readProfessionalCorpus('training/corpus/professional.jsonl').texts.filter((t) => t.split === 'train' && t.textType === 'resume').slice(0, 120);
console.log(await textAndPdf(model, resumes));
