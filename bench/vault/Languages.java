import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A vault like a person's first one, for the first search's deadline (BENCHMARKS.md, "The first
 * search on a vault in 30 languages"): by default 6,289 Markdown notes, about 47 MB, in 31
 * languages and their scripts (Latin with accents, Greek, Cyrillic, Hebrew, Arabic, Devanagari,
 * Bengali, Thai, Chinese, Japanese, Korean), so that most words take the analyzer's slow path
 * (decomposition, folding) and the scripts without spaces make long words. Sizes are skewed as in
 * a real vault: most notes a few KiB, a few over 100 KiB. The word {@code canvas} is in 12 notes.
 * One seed, one output.
 *
 * <p>Run from the repository root: {@code java bench/vault/Languages.java --out DIR [--notes N]
 * [--megabytes M] [--seed S]}; writes DIR/vault/ and DIR/policy.json, and prints the count and
 * bytes.
 */
public final class Languages {
  /** Each language: a name (its folder) and words, as a person writes them. */
  static final String[][] LANGUAGES = {
    {"English", "the and of to in is that for it with as was on be at by this had not are but from or have an they which one you were all we her she there would their will when who him been has more if no out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three"},
    {"Deutsch", "und der die das nicht ist ein eine zu mit sich auf für über größe straße müssen können würde äpfel grüße schön weiß früher später heute morgen abend nacht arbeit zeit jahr woche tag leben haus stadt land welt mensch menschen kinder freund freundin buch bücher schreiben lesen sprechen gehen kommen bleiben fahren zurück öffnen geschäft gespräch erklärung lösung prüfung übung"},
    {"Français", "le la les des une un et est être avoir été déjà très où à ça ce cette ces pour avec dans sur sous après avant même aussi comme plus moins père mère frère sœur cœur œuvre français été hiver printemps automne journée soirée année église école élève théâtre château forêt fenêtre hôpital île naïve noël garçon façon reçu leçon déçu"},
    {"Español", "el la los las un una y de que en es por para con sin sobre entre año años niño niña mañana tarde noche señor señora corazón canción acción información razón jardín camión lápiz árbol música película teléfono rápido fácil difícil último próximo pequeño español compañía cumpleaños"},
    {"Italiano", "il lo la gli le un una e di che in è per con su tra fra città università perché però così più già può giù caffè tè lunedì martedì venerdì virtù gioventù felicità libertà qualità bontà amicizia famiglia lavoro giorno notte casa strada mare montagna"},
    {"Português", "o a os as um uma e de que em é para com sem por não são mãe pão irmão coração ação informação avó avô você também até já lá só café cidade trabalho amanhã manhã tarde noite família amigo livro escrever ler falar andar açúcar maçã"},
    {"Nederlands", "de het een en van in is dat op te zijn voor met niet aan er maar om ook als dan bij nog wel geen naar uit kan zo werk huis stad jaar dag week leven mensen kinderen vriend boek schrijven lezen praten gaan komen blijven rijden terug één café privé ideeën"},
    {"Svenska", "och att det som en är på av för med till den har inte om ett han men var jag sig från vi så kan man när år där också efter måste även skulle hur här än mycket många något sådan få gå stå små båt blå röd grön kött smör räksmörgås"},
    {"Norsk", "og i det som en er på av for med til den har ikke om et han men var jeg seg fra vi så kan man når år der også etter må skal hvordan her enn mye mange noe få gå stå små båt blå rød grønn kjøtt smør øl ærlig"},
    {"Dansk", "og i at det som en er på af for med til den har ikke om et han men var jeg sig fra vi så kan man når år der også efter må skal hvordan her end meget mange noget få gå stå små båd blå rød grøn kød smør øl ærlig"},
    {"Suomi", "ja on ei se että hän oli ovat mutta kun niin kuin myös jo vain sitten nyt tämä tuo mikä joka kaikki paljon hyvin päivä yö vuosi viikko työ talo kaupunki maa ihminen lapsi ystävä kirja kirjoittaa lukea puhua mennä tulla jäädä ajaa takaisin äiti isä sää järvi metsä"},
    {"Polski", "i w na z że się nie to jest do o jak po co tak ale czy jego jej ich być mieć który która które może już tylko także bardzo dzień noc rok tydzień praca dom miasto kraj człowiek ludzie dzieci przyjaciel książka pisać czytać mówić iść przyjść zostać jechać wrócić źródło żółw łódź ćma"},
    {"Čeština", "a v na se že je to s z do o jak po co tak ale jeho její jejich být mít který která které může už jen také velmi den noc rok týden práce dům město země člověk lidé děti přítel kniha psát číst mluvit jít přijít zůstat jet vrátit řeka škola čas"},
    {"Magyar", "a az és hogy nem is egy van volt meg csak de mint még már ez az azt ki mi minden nagyon nap éjszaka év hét munka ház város ország ember emberek gyerekek barát könyv írni olvasni beszélni menni jönni maradni utazni vissza különböző előtt után győzelem tűz ő"},
    {"Română", "și în de la cu pe că nu este un o din pentru mai dar care sau ce sunt fost ca acest această foarte zi noapte an săptămână muncă casă oraș țară om oameni copii prieten carte scrie citi vorbi merge veni rămâne călători înapoi înțelegere învățătură țânțar"},
    {"Türkçe", "ve bir bu da de ne için ile ama çok daha gibi kadar sonra önce şimdi bugün yarın akşam gece iş zaman yıl hafta gün hayat ev şehir ülke insan insanlar çocuklar arkadaş kitap yazmak okumak konuşmak gitmek gelmek kalmak dönmek ığdır şöyle güzel öğretmen üzüm"},
    {"Ελληνικά", "και το η ο να είναι σε με για από δεν που τα της του των ένα μια αλλά θα όπως πολύ μετά πριν τώρα σήμερα αύριο βράδυ νύχτα δουλειά χρόνος χρόνια εβδομάδα ημέρα ζωή σπίτι πόλη χώρα άνθρωπος άνθρωποι παιδιά φίλος βιβλίο γράφω διαβάζω μιλάω πηγαίνω έρχομαι μένω"},
    {"Русский", "и в не на я что он с как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между"},
    {"Українська", "і в не на що він з як а то все вона так його але так ти до у же ви за би по тільки її мені було ось від мене ще немає про із йому тепер коли навіть ну раптом чи якщо вже або ні бути був нього до вас знову там потім себе нічого їй може вони тут де є треба ній для ми тебе їх ніж була сам щоб без ніби чого раз теж собі під буде ж тоді хто цей того тому цього який зовсім ним тут цьому один майже мій тим щоб неї зараз були куди навіщо всіх ніколи можна при нарешті два об інший хоч після над більше той через ці нас про всього них яка багато хіба три цю моя втім добре свою цієї перед іноді краще трохи тому не можна такий їм більш завжди звичайно всю між"},
    {"Български", "и в не на че той с как а то всичко тя така неговия но да ти към у вие за би по само нея мен беше ето от още няма за из него сега когато дори вече или ни бъде беше него до вас отново там после себе си нищо може те тук където има трябва нея за ние теб техния отколкото беше сам без като че ли път също под ще тогава кой този защото какъв съвсем"},
    {"Српски", "и у не на да је се што он са као а то све она тако његов али ти ка већ ви за би по само њу мени било ево од мене још нема о из њему сада када чак па одједном ли ако или ни бити био до вас опет тамо онда себе ништа њој може они ту где има треба њој за ми тебе њих него била сам без као раз такође себи под биће тада ко овај тога зато"},
    {"עברית", "של את על לא זה הוא היא עם כל גם אבל או אם כי יש אין מה מי איך למה כאן שם עכשיו היום מחר ערב לילה עבודה זמן שנה שבוע יום חיים בית עיר ארץ אדם אנשים ילדים חבר ספר לכתוב לקרוא לדבר ללכת לבוא להישאר לנסוע לחזור שלום תודה בבקשה"},
    {"العربية", "في من على إلى عن مع هذا هذه ذلك التي الذي كان كانت لا ما لم لن قد كل بعض أن إن هو هي هم نحن أنا أنت اليوم غدا مساء ليل عمل وقت سنة أسبوع يوم حياة بيت مدينة بلد إنسان ناس أطفال صديق كتاب يكتب يقرأ يتكلم يذهب يأتي يبقى يسافر يعود شكرا مرحبا"},
    {"فارسی", "و در به از که این را با است برای آن یک خود تا کرد بر هم نیز گفت می شود وی شد دارد ما اما یا شده باید هر آنها بود او دیگر دو مورد کند شما امروز فردا شب کار زمان سال هفته روز زندگی خانه شهر کشور انسان مردم کودکان دوست کتاب نوشتن خواندن"},
    {"हिन्दी", "और का के की है में से को पर यह था थे थी हैं नहीं भी एक कि तो ही जो कर किया गया हो रहा अपने उस इस वह वे हम आप मैं आज कल शाम रात काम समय साल सप्ताह दिन जीवन घर शहर देश आदमी लोग बच्चे दोस्त किताब लिखना पढ़ना बोलना जाना आना रहना लौटना धन्यवाद नमस्ते"},
    {"বাংলা", "এবং এই যে না করে হয় থেকে জন্য সঙ্গে আর কিন্তু তার তিনি আমি আমরা তুমি আপনি আজ কাল সন্ধ্যা রাত কাজ সময় বছর সপ্তাহ দিন জীবন বাড়ি শহর দেশ মানুষ লোক শিশু বন্ধু বই লেখা পড়া বলা যাওয়া আসা থাকা ফেরা ধন্যবাদ নমস্কার"},
    {"ไทย", "และ ของ ที่ เป็น ใน ได้ ไม่ มี การ จะ ให้ ว่า กับ แล้ว ก็ นี้ คน ไป มา อยู่ วันนี้ พรุ่งนี้ ตอนเย็น กลางคืน งาน เวลา ปี สัปดาห์ วัน ชีวิต บ้าน เมือง ประเทศ มนุษย์ เด็ก เพื่อน หนังสือ เขียน อ่าน พูด กลับ ขอบคุณ สวัสดี"},
    {"中文", "的 一 是 不 了 人 我 在 有 他 这 为 之 大 来 以 个 中 上 们 到 说 国 和 地 也 子 时 道 出 而 要 于 就 下 得 可 你 年 生 自 会 那 后 能 对 着 事 其 里 所 去 行 过 家 十 用 发 天 如 然 作 方 成 者 多 日 都 三 小 军 二 无 同 么 经 法 当 起 与 好 看 学 进 种 将 还 分 此 心 前 面 又 定 见 只 主 没 公 从 工作 时间 今天 明天 晚上 朋友 书 写 读 说话 城市 国家 生活 房子 孩子 谢谢"},
    {"日本語", "の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため その あっ よう また もの という あり まで られ なる へ か だ これ によって により おり より による ず なり られる において ば なかっ なく しかし について せ だっ その後 できる それ う 仕事 時間 今日 明日 夜 友達 本 書く 読む 話す 行く 来る 東京 日本 会社 学校 ありがとう"},
    {"한국어", "이 그 저 것 수 등 들 및 에서 으로 하다 있다 되다 없다 않다 같다 보다 오늘 내일 저녁 밤 일 시간 년 주 날 삶 집 도시 나라 사람 사람들 아이들 친구 책 쓰다 읽다 말하다 가다 오다 머물다 돌아가다 감사합니다 안녕하세요 서울 한국 회사 학교"},
    {"Tiếng Việt", "và của là có không được trong cho với những một các này đã người khi như để từ đến về ra làm thì hôm nay ngày mai buổi tối đêm công việc thời gian năm tuần ngày cuộc sống nhà thành phố đất nước con người trẻ em bạn bè sách viết đọc nói đi đến ở lại trở về cảm ơn xin chào tiếng việt"},
  };

  static final String[] SCRIPTLESS = {"中文", "日本語", "ไทย"};

  public static void main(String[] args) throws IOException {
    Path out = null;
    int notes = 6289;
    long megabytes = 47;
    long seed = 20261208;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Path.of(args[++i]);
        case "--notes" -> notes = Integer.parseInt(args[++i]);
        case "--megabytes" -> megabytes = Long.parseLong(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        default -> {
          System.err.println(
              "usage: java bench/vault/Languages.java --out DIR [--notes N] [--megabytes M]"
                  + " [--seed S]");
          System.exit(2);
        }
      }
    }
    if (out == null) {
      System.err.println("usage: java bench/vault/Languages.java --out DIR");
      System.exit(2);
    }
    Random random = new Random(seed);
    Path vault = out.resolve("vault");
    Files.createDirectories(vault);
    // Sizes: log-normal, then scaled to the total.
    double[] weights = new double[notes];
    double sum = 0;
    for (int n = 0; n < notes; n++) {
      weights[n] = Math.exp(random.nextGaussian() * 1.1);
      sum += weights[n];
    }
    long total = megabytes * 1_000_000;
    List<String> folders = new ArrayList<>();
    for (int f = 0; f < 120; f++) {
      String[] language = LANGUAGES[f % LANGUAGES.length];
      String word = word(random, language);
      folders.add(language[0] + "/" + capital(word) + " " + (f / LANGUAGES.length + 1));
    }
    long written = 0;
    int canvas = 0;
    for (int n = 0; n < notes; n++) {
      int size = (int) Math.max(200, Math.min(400_000, weights[n] / sum * total));
      String folder = folders.get(random.nextInt(folders.size()));
      String[] language = LANGUAGES[random.nextInt(LANGUAGES.length)];
      StringBuilder text = new StringBuilder();
      text.append("---\ntags: [").append(word(random, language)).append("]\ncreated: 2026-")
          .append(String.format("%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28)))
          .append("\n---\n\n# ").append(capital(word(random, language))).append(' ')
          .append(word(random, language)).append("\n\n");
      boolean plant = n % 524 == 17;
      int length = text.toString().getBytes(StandardCharsets.UTF_8).length;
      while (length < size) {
        int from = text.length();
        // A paragraph, now and then in another language, as notes quote and mix.
        String[] in = random.nextInt(6) == 0 ? LANGUAGES[random.nextInt(LANGUAGES.length)] : language;
        paragraph(random, in, text);
        if (plant) {
          text.append("The canvas for this is ready.\n\n");
          plant = false;
          canvas++;
        }
        if (random.nextInt(5) == 0) {
          text.append("- [[").append(capital(word(random, in))).append("]] ")
              .append(word(random, in)).append('\n');
        }
        length += text.substring(from).getBytes(StandardCharsets.UTF_8).length;
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      Path file = vault.resolve(folder).resolve(String.format("%05d %s.md", n, word(random, language)));
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      written += bytes.length;
    }
    Files.writeString(
        out.resolve("policy.json"),
        "{\"readable\": [\"**/*.md\"], \"maxNoteBytes\": 1048576, \"maxCalls\": 100000,"
            + " \"search\": true}\n");
    System.out.println("notes " + notes + " bytes " + written + " canvas " + canvas);
  }

  static String word(Random random, String[] language) {
    String[] words = language[1].split(" ");
    // Zipf-like: low indexes far more often.
    int i = (int) Math.min(words.length - 1, Math.floor(Math.pow(random.nextDouble(), 2.2) * words.length));
    return words[i];
  }

  static String capital(String word) {
    int first = word.codePointAt(0);
    return new StringBuilder().appendCodePoint(Character.toTitleCase(first))
        .append(word.substring(Character.charCount(first))).toString();
  }

  static void paragraph(Random random, String[] language, StringBuilder text) {
    boolean spaced = true;
    for (String s : SCRIPTLESS) {
      spaced &= !s.equals(language[0]);
    }
    int sentences = 2 + random.nextInt(5);
    for (int s = 0; s < sentences; s++) {
      int words = 5 + random.nextInt(14);
      for (int w = 0; w < words; w++) {
        String word = word(random, language);
        text.append(w == 0 ? capital(word) : word);
        if (w + 1 < words) {
          text.append(spaced || random.nextInt(4) == 0 ? (random.nextInt(9) == 0 ? ", " : " ") : "");
        }
      }
      text.append(spaced ? ". " : "。");
    }
    text.append("\n\n");
  }
}
