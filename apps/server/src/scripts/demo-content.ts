/**
 * Original demo content written for Inkwell (no third-party text), so that a fresh install has
 * something to read. Each book's chapters are built from its own scene paragraphs.
 */
export interface DemoAuthor {
  username: string;
  first_name: string;
  last_name: string;
  biography: string;
  palette: [string, string];
}

export interface DemoBook {
  author: string;
  title: string;
  summary: string;
  genres: number[];
  palette: [string, string];
  chapters: { title: string; paragraphs: string[] }[];
}

export const DEMO_PASSWORD = 'inkwell-demo';

export const DEMO_AUTHORS: DemoAuthor[] = [
  {
    username: 'mara_vell',
    first_name: 'Mara',
    last_name: 'Vell',
    biography:
      'Writes about lighthouses, tides and the people who keep them. Updates every Friday.',
    palette: ['#1d4e89', '#7fb7be'],
  },
  {
    username: 'tobias.quill',
    first_name: 'Tobias',
    last_name: 'Quill',
    biography: 'Former cartographer. Now maps imaginary cities, one chapter at a time.',
    palette: ['#6b2d5c', '#f0a202'],
  },
  {
    username: 'june-okafor',
    first_name: 'June',
    last_name: 'Okafor',
    biography: 'Mysteries with small stakes and large hearts.',
    palette: ['#2e5e4e', '#e3d887'],
  },
];

export const DEMO_BOOKS: DemoBook[] = [
  {
    author: 'mara_vell',
    title: 'The Keeper of Gannet Rock',
    summary:
      'A young keeper inherits a lighthouse, a logbook in a stranger’s hand, and a light that sometimes answers back.',
    genres: [1, 4, 12],
    palette: ['#0b3c5d', '#d9b310'],
    chapters: [
      {
        title: 'The Boat at Dawn',
        paragraphs: [
          'The supply boat left Ilse on the rock before the gulls were awake, with two crates of tinned peaches, a sack of lamp wicks and a key on a green ribbon.',
          'She watched the boat until it was a smudge against the grey, and then there was nothing to watch but the sea, which did not care whether she stayed or left.',
          'The tower was taller than it had looked from the mainland. Its door was painted the same green as the ribbon, and it opened without a sound, as if it had been waiting.',
        ],
      },
      {
        title: 'A Logbook in Another Hand',
        paragraphs: [
          'The last keeper had written every night for thirty-one years: wind, weather, ships sighted, oil burned. The entries were small and careful until the final winter.',
          'Then the handwriting changed. The letters leaned forward as if hurrying, and between the weather reports there were questions, addressed to no one Ilse could see.',
          '“Do you see it too?” one entry read. “The light turns, and something on the water turns with it.”',
        ],
      },
      {
        title: 'What the Light Answered',
        paragraphs: [
          'On the third night Ilse climbed to the lantern room with a mug of tea and the logbook under her arm, meaning only to read by the great lens.',
          'At the turn of the beam a second light blinked far out on the water: once, twice, a pause, and once again. It was the pattern of the rock itself, returned.',
          'She wrote it down in her own hand, small and careful, and under it she wrote the first question of her own.',
        ],
      },
    ],
  },
  {
    author: 'tobias.quill',
    title: 'Streets That Move at Night',
    summary:
      'In the city of Aubrel the streets rearrange themselves after midnight. Only the mapmakers’ guild knows why — and one apprentice is about to find out.',
    genres: [4, 10, 16],
    palette: ['#3c1642', '#f6ae2d'],
    chapters: [
      {
        title: 'Apprentice of the Ninth Desk',
        paragraphs: [
          'Every morning the guild sent its apprentices out with blank sheets and sharpened pencils, and every evening they came back with a city that was not the one of yesterday.',
          'Pell had the ninth desk, which was by the draughty window and therefore the one nobody wanted, but it looked straight down on Lantern Street, which never moved at all.',
          'Nobody at the guild could tell him why Lantern Street stayed put. Nobody, he began to suspect, had ever asked.',
        ],
      },
      {
        title: 'The Street That Stayed',
        paragraphs: [
          'He went out after midnight with a lamp, a compass and a ball of red string, tying one end to the railing of the guild steps.',
          'Around him the city sighed and shifted. Alleys folded like paper; a bakery slid past with its shutters closed and its chimney still warm.',
          'Lantern Street did not move, and at its end, where there had always been a wall, there was now a door.',
        ],
      },
    ],
  },
  {
    author: 'tobias.quill',
    title: 'Atlas of Small Kingdoms',
    summary:
      'Twelve short maps of twelve invented countries, each the size of a village and the pride of an empire.',
    genres: [1, 13, 22],
    palette: ['#285943', '#8cd790'],
    chapters: [
      {
        title: 'The Duchy of One Bridge',
        paragraphs: [
          'The Duchy consists of a bridge, the river under it, and a tollkeeper who is also the Duke, the army and the customs office.',
          'Its national anthem is the sound of cart wheels on planks. Its greatest export is the opinion that the other bank is not worth visiting.',
        ],
      },
      {
        title: 'The Republic of the Upper Orchard',
        paragraphs: [
          'Founded by seven apple trees and a disagreement, the Republic holds elections every autumn, in which the winner is whoever picked the most fruit.',
          'Its constitution is carved into a fence post. The fence post is, by law, the capital.',
        ],
      },
    ],
  },
  {
    author: 'june-okafor',
    title: 'The Case of the Borrowed Umbrella',
    summary:
      'When the library’s lost-property umbrella goes missing, retired teacher Adaeze Nwosu discovers that a small town keeps its secrets under very small covers.',
    genres: [6, 14, 22],
    palette: ['#7a1e48', '#f5d0c5'],
    chapters: [
      {
        title: 'A Very Small Theft',
        paragraphs: [
          'The umbrella had hung on the library’s brass hook for eleven years, and in that time it had been borrowed four hundred and twelve times and returned four hundred and twelve times.',
          'So when Mrs Nwosu found the hook empty on a dry Tuesday in June, she did what any reasonable person would do: she sat down with a notebook and made a list of suspects.',
          'The list was short, because the town was small. It was also, she realised with some discomfort, made up entirely of her friends.',
        ],
      },
      {
        title: 'Tea with the First Suspect',
        paragraphs: [
          'Mr Adeyemi served his tea too strong and his biscuits too soft, and he had never once in thirty years been seen without a hat.',
          '“An umbrella,” he said, as though the word were a foreign coin. “Why would anyone take an umbrella in June?”',
          'It was, Mrs Nwosu thought, an excellent question, and the first clue.',
        ],
      },
      {
        title: 'Rain, at Last',
        paragraphs: [
          'The rain came on Thursday, and with it came the umbrella: walking down the high street above a small girl in yellow boots, who had no idea she was the answer to anything.',
          'Mrs Nwosu closed her notebook. Some cases, she decided, are solved best by the weather.',
        ],
      },
    ],
  },
];
