/*
 * twenty48-avr-sim: one AVR chip on libsimavr (Debian's simavr 1.6), driven line by line by
 * the twenty48-sim-avr crate (crates/sim-avr/src/) for the firmware tests. Runs on the host.
 *
 * It loads a flat flash image (the crate makes it from the .hex `just firmware` writes) and
 * models what simavr 1.6 leaves out or gets wrong for this firmware:
 *   - EEPROM: the datasheet's modes (EEPM: erase and write, erase only, write only), each
 *     operation taking its time (3.4 / 1.8 / 1.8 ms) with EEPE set meanwhile, the rules
 *     broken counted (a read, an address or data change, a mode change or a second start
 *     while busy; EEPE without EEMPE), and a power cut at the k-th operation that leaves its
 *     byte torn (simavr writes at once, in every mode, and never refuses).
 *   - SPI master: a byte takes 8 SCK periods of the configured divider (simavr: 100 us
 *     whatever the rate, and a byte written meanwhile replaces the one in flight); a byte
 *     written during a transfer sets WCOL and is counted as a broken rule.
 *   - Buttons: a button pulls its pin to ground; released, the pin reads high only with the
 *     internal pull-up on (simavr reads input pins as last driven, low by default); a read
 *     of a released pin without the pull-up is counted as floating.
 *   - USART0 input: bytes go in at the line's rate, held back (flow control) while the chip's
 *     two-byte receive buffer is full; each byte a link without flow control would have lost
 *     there is counted.
 *   - ADC: noise on the inputs from a seeded generator (simavr converts 0 V).
 *   - The stack pointer's lowest value, checked after every instruction against the end of
 *     the static data.
 *
 * Protocol, one line each way (numbers decimal; times in ns of emulated time from reset):
 *   in:  run UNTIL_NS FRAMES IDLES     run until UNTIL_NS, or until FRAMES more 0x00 bytes
 *                                      went out on USART0, or until the firmware went to
 *                                      sleep waiting for input IDLES more times (its idle
 *                                      loop sleeps until the next interrupt: the buttons'
 *                                      timer wakes it once a millisecond; sleeps less than
 *                                      0.5 ms after the last one counted are not counted;
 *                                      0: no such condition)
 *        btn I 0|1                     button I released / pressed
 *        send HEX                      bytes to USART0's input, in order
 *        eeprom PATH                   writes the EEPROM's bytes to PATH
 *        stats                         prints the counters
 *        quit
 *   out: hello twenty48-avr-sim PROTOCOL MCU, once at start
 *        u NS BYTE                     a byte written to USART0's data register
 *        s NS BYTE CS                  an SPI byte started; CS the chip-select pin's level
 *        p NS NAME LEVEL               a watched output pin changed
 *        e NS K MODE ADDR OLD RESULT   EEPROM operation K (from 1) started: MODE 0 erase and
 *                                      write, 1 erase only, 2 write only; RESULT its byte when done
 *        x NS PC SP                    the stack went below the end of the static data (once)
 *        v NS WHAT                     a hardware rule broken (see above)
 *        stop NS REASON                run ended: time, frames, idle, cut, crashed, done
 *        stats NS CYCLES MIN_SP EE_OPS VIOLATIONS FLOATING HELD CLI IDLES  the counters;
 *                                      CLI the longest stretch of cycles with interrupts off,
 *                                      awake, with USART0's receiver on; IDLES the idle
 *                                      loop's turns so far (as `run` counts them)
 *        error TEXT                    a bad command or argument (then exit status 2)
 */
#include "avr_sim.h"

harness_t H;

uint64_t now_ns(void)
{
	return H.avr->cycle * 125 / 2; /* 62.5 ns a cycle at 16 MHz */
}

void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("error ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	exit(2);
}

uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void violation(const char *what)
{
	H.violations++;
	printf("v %" PRIu64 " %s\n", now_ns(), what);
}

avr_io_t *io_of(const char *kind, char name)
{
	for (avr_io_t *io = H.avr->io_port; io; io = io->next) {
		if (strcmp(io->kind, kind))
			continue;
		if (!name || (!strcmp(kind, "port") && ((avr_ioport_t *)io)->name == name) ||
				(!strcmp(kind, "uart") && ((avr_uart_t *)io)->name == name))
			return io;
	}
	return NULL;
}

/* "B4" -> port B, bit 4. */
static pin_t pin_of(const char *text)
{
	pin_t p = {0};
	if (strlen(text) != 2 || text[1] < '0' || text[1] > '7')
		fail("bad pin %s (a port letter and a bit, as B4)", text);
	p.port = (avr_ioport_t *)io_of("port", text[0]);
	if (!p.port)
		fail("the chip has no port %c", text[0]);
	p.bit = text[1] - '0';
	return p;
}

static int output_level(pin_t p)
{
	return (H.avr->data[p.port->r_port] >> p.bit) & 1;
}

/* ---- buttons ---- */

/* Sets the button pins' input levels on `port`, then runs simavr's own read. */
static uint8_t pin_read(avr_t *avr, avr_io_addr_t addr, void *param)
{
	hook_t *hook = (hook_t *)param;
	for (int i = 0; i < H.buttons; i++) {
		pin_t b = H.button[i];
		if (b.port->r_pin != addr)
			continue;
		uint8_t mask = 1 << b.bit;
		int level;
		if (H.pressed[i]) {
			level = 0;
		} else if (!(avr->data[b.port->r_ddr] & mask) && (avr->data[b.port->r_port] & mask)) {
			level = 1;
		} else {
			/* Released, with no pull-up: the pin floats (read as low here). */
			H.floating++;
			level = 0;
		}
		avr->data[addr] = (avr->data[addr] & ~mask) | (level ? mask : 0);
	}
	return hook->read(avr, addr, hook->param);
}

static void hook_pin_reads(avr_ioport_t *port)
{
	avr_io_addr_t a = AVR_DATA_TO_IO(port->r_pin);
	for (int i = 0; i < H.nhooks; i++)
		if (H.hooks[i].addr == port->r_pin)
			return;
	if (H.nhooks == MAX_HOOKS)
		fail("too many ports hooked");
	hook_t *hook = &H.hooks[H.nhooks++];
	hook->addr = port->r_pin;
	hook->read = H.avr->io[a].r.c;
	hook->param = H.avr->io[a].r.param;
	if (!hook->read)
		fail("port %c has no read handler", port->name);
	H.avr->io[a].r.c = pin_read;
	H.avr->io[a].r.param = hook;
}

/* ---- watched output pins ---- */

static void watch_notify(avr_irq_t *irq, uint32_t value, void *param)
{
	int i = (int)(intptr_t)param;
	int level = value & 1;
	if (level != H.watch_level[i]) {
		H.watch_level[i] = level;
		printf("p %" PRIu64 " %s %d\n", now_ns(), H.watch_name[i], level);
	}
}

/* ---- USART0 ---- */

static void uart_out(avr_irq_t *irq, uint32_t value, void *param)
{
	printf("u %" PRIu64 " %u\n", now_ns(), value & 0xff);
	if ((value & 0xff) == 0)
		H.frames++;
}

/* One byte time: the next queued byte into the receiver, unless its buffer is full. */
static avr_cycle_count_t uart_feed(avr_t *avr, avr_cycle_count_t when, void *param)
{
	avr_uart_t *u = H.uart;
	avr_cycle_count_t next = when + (u->cycles_per_byte ? u->cycles_per_byte : 1000);
	if (H.rx_head == H.rx_len)
		return 0;
	int rxen = avr_regbit_get(avr, u->rxen);
	unsigned waiting = ((u->input.write + uart_fifo_fifo_size) - u->input.read) &
			(uart_fifo_fifo_size - 1);
	if (!rxen || waiting >= 2) {
		/* A link without flow control would lose this byte here. */
		H.held++;
		return next;
	}
	avr_raise_irq(H.uart_in, H.rx[H.rx_head++]);
	return H.rx_head == H.rx_len ? 0 : next;
}

static void uart_queue(const char *hex)
{
	size_t n = strlen(hex);
	if (n % 2)
		fail("odd hex length");
	if (H.rx_head == H.rx_len)
		H.rx_head = H.rx_len = 0;
	if (H.rx_len + n / 2 > H.rx_cap) {
		H.rx_cap = (H.rx_len + n / 2) * 2;
		H.rx = realloc(H.rx, H.rx_cap);
		if (!H.rx)
			fail("out of memory");
	}
	for (size_t i = 0; i < n; i += 2) {
		unsigned b;
		if (sscanf(hex + i, "%2x", &b) != 1)
			fail("bad hex %s", hex);
		H.rx[H.rx_len++] = b;
	}
	if (avr_cycle_timer_status(H.avr, uart_feed, NULL) == 0)
		avr_cycle_timer_register(H.avr, 1, uart_feed, NULL);
}

/* ---- SPI ---- */

static avr_cycle_count_t spi_done(avr_t *avr, avr_cycle_count_t when, void *param)
{
	H.spi_busy = 0;
	avr_raise_interrupt(avr, &H.spi->spi); /* SPIF, and the interrupt if enabled */
	return 0;
}

static void spi_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
	avr_spi_t *p = H.spi;
	if (H.spi_busy) {
		avr->data[p->r_spsr] |= 1 << 6; /* WCOL */
		violation("spi-write-collision");
		return;
	}
	avr_regbit_clear(avr, p->spi.raised);
	avr->data[p->r_spsr] &= ~(1 << 6);
	avr_core_watch_write(avr, addr, v);
	if (!avr_regbit_get(avr, p->spe) || !avr_regbit_get(avr, p->mstr))
		return;
	static const unsigned divider[4] = {4, 16, 64, 128};
	unsigned div = divider[avr_regbit_get(avr, p->spr[0]) | (avr_regbit_get(avr, p->spr[1]) << 1)];
	if (avr_regbit_get(avr, p->spr[2]))
		div /= 2;
	H.spi_busy = 1;
	printf("s %" PRIu64 " %u %d\n", now_ns(), v, H.has_cs ? output_level(H.cs) : 1);
	avr_cycle_timer_register(avr, 8 * div, spi_done, NULL);
}

/* ---- ADC ---- */

static void adc_trigger(avr_irq_t *irq, uint32_t value, void *param)
{
	avr_irq_t *inputs = (avr_irq_t *)param;
	for (int i = 0; i < 8; i++)
		avr_raise_irq(inputs + ADC_IRQ_ADC0 + i, 2000 + splitmix(&H.noise) % 1000);
}

/* ---- the run ---- */

static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
}

static void run(uint64_t until, uint64_t frames, uint64_t idles)
{
	avr_t *avr = H.avr;
	uint64_t frames_end = H.frames + frames, idles_end = H.idles + idles;
	const char *why = NULL;
	while (!why) {
		if (H.cut)
			why = "cut";
		else if (now_ns() >= until)
			why = "time";
		else if (frames && H.frames >= frames_end)
			why = "frames";
		else if (idles && H.idles >= idles_end)
			why = "idle";
		if (why)
			break;
		int state = avr_run(avr);
		/*
		 * Each time the chip goes to sleep is one turn of the firmware's idle loop, but
		 * for the buttons' timer's once a millisecond: a received byte's wake-up in
		 * between (every 87 us at 115,200 baud) is not another turn.
		 */
		if (state == cpu_Sleeping && !H.asleep &&
				(H.idles == 0 || now_ns() - H.last_idle >= 500000)) {
			H.idles++;
			H.last_idle = now_ns();
		}
		H.asleep = state == cpu_Sleeping;
		if (state == cpu_Crashed || state == cpu_Stopped)
			why = "crashed";
		else if (state == cpu_Done)
			why = "done";
		if (!avr->sreg[S_I] && state != cpu_Sleeping && avr_regbit_get(avr, H.uart->rxen)) {
			if (!H.cli_since)
				H.cli_since = avr->cycle;
		} else if (H.cli_since) {
			if (avr->cycle - H.cli_since > H.cli_longest)
				H.cli_longest = avr->cycle - H.cli_since;
			H.cli_since = 0;
		}
		uint16_t sp = avr->data[R_SPL] | (avr->data[R_SPH] << 8);
		if (sp < H.min_sp) {
			H.min_sp = sp;
			/* A push writes at SP, then SP moves down: the lowest byte used is SP + 1. */
			if (sp + 1 < H.static_end && !H.stack_reported) {
				H.stack_reported = 1;
				printf("x %" PRIu64 " %u %u\n", now_ns(), avr->pc, sp);
			}
		}
	}
	printf("stop %" PRIu64 " %s\n", now_ns(), why);
}

static void usage(void)
{
	fail("usage: twenty48-avr-sim --mcu NAME --flash FLAT.bin --static-end ADDR "
			"[--eeprom IMAGE] [--button PIN]... [--cs PIN] [--watch NAME=PIN]... "
			"[--noise SEED] [--cut K --tear SEED]");
}

int main(int argc, char **argv)
{
	static char out[1 << 20];
	setvbuf(stdout, out, _IOFBF, sizeof(out));
	const char *mcu = NULL, *flash = NULL, *eeprom = NULL, *cs = NULL;
	const char *buttons[MAX_BUTTONS], *watches[MAX_WATCH];
	int nb = 0, nw = 0;
	unsigned long static_end = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--mcu"))
			mcu = v;
		else if (!strcmp(a, "--flash"))
			flash = v;
		else if (!strcmp(a, "--static-end"))
			static_end = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--eeprom"))
			eeprom = v;
		else if (!strcmp(a, "--button") && nb < MAX_BUTTONS)
			buttons[nb++] = v;
		else if (!strcmp(a, "--cs"))
			cs = v;
		else if (!strcmp(a, "--watch") && nw < MAX_WATCH)
			watches[nw++] = v;
		else if (!strcmp(a, "--noise"))
			H.noise = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--cut"))
			H.cut_at = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--tear"))
			H.tear = strtoull(v, NULL, 0);
		else
			usage();
	}
	if (!mcu || !flash || !static_end)
		usage();
	H.avr = avr_make_mcu_by_name(mcu);
	if (!H.avr)
		fail("simavr knows no chip %s", mcu);
	avr_t *avr = H.avr;
	avr_init(avr);
	avr->frequency = FREQUENCY;
	avr->sleep = no_sleep;
	avr->log = 1;

	FILE *f = fopen(flash, "rb");
	if (!f)
		fail("cannot open the flash image %s: %s", flash, strerror(errno));
	size_t n = fread(avr->flash, 1, avr->flashend + 1, f);
	int extra = fgetc(f);
	fclose(f);
	if (extra != EOF)
		fail("the flash image %s is larger than the %s's %u bytes", flash, mcu, avr->flashend + 1);
	avr->codeend = n;
	H.static_end = static_end;
	H.min_sp = avr->data[R_SPL] | (avr->data[R_SPH] << 8);

	install_eeprom();
	if (eeprom)
		ee_load(eeprom);

	H.uart = (avr_uart_t *)io_of("uart", '0');
	if (!H.uart)
		fail("the chip has no USART0");
	uint32_t flags = 0; /* no stdout echo, no sleeping on polls */
	avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
	H.uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
			uart_out, NULL);

	H.spi = (avr_spi_t *)io_of("spi", 0);
	if (!H.spi)
		fail("the chip has no SPI");
	avr->io[AVR_DATA_TO_IO(H.spi->r_spdr)].w.c = spi_write;
	avr->io[AVR_DATA_TO_IO(H.spi->r_spdr)].w.param = NULL;
	if (cs) {
		H.cs = pin_of(cs);
		H.has_cs = 1;
	}

	for (int i = 0; i < nb; i++) {
		H.button[i] = pin_of(buttons[i]);
		hook_pin_reads(H.button[i].port);
	}
	H.buttons = nb;
	for (int i = 0; i < nw; i++) {
		const char *eq = strchr(watches[i], '=');
		if (!eq || eq == watches[i] || eq - watches[i] >= 16)
			fail("bad --watch %s (NAME=PIN)", watches[i]);
		memcpy(H.watch_name[i], watches[i], eq - watches[i]);
		H.watch[i] = pin_of(eq + 1);
		H.watch_level[i] = -1;
		avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(H.watch[i].port->name),
				H.watch[i].bit);
		avr_irq_register_notify(irq, watch_notify, (void *)(intptr_t)i);
	}
	H.watches = nw;

	avr_irq_t *adc = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, 0);
	if (adc)
		avr_irq_register_notify(adc + ADC_IRQ_OUT_TRIGGER, adc_trigger, adc);

	printf("hello twenty48-avr-sim %d %s\n", PROTOCOL, mcu);
	fflush(stdout);

	char line[1 << 16];
	while (fgets(line, sizeof(line), stdin)) {
		char word[16], arg[sizeof(line)];
		uint64_t a = 0, b = 0, c = 0;
		if (sscanf(line, "%15s", word) != 1)
			continue;
		if (!strcmp(word, "run") && sscanf(line, "run %" SCNu64 " %" SCNu64 " %" SCNu64, &a, &b, &c) == 3) {
			run(a, b, c);
		} else if (!strcmp(word, "btn") && sscanf(line, "btn %" SCNu64 " %" SCNu64, &a, &b) == 2) {
			if (a >= (uint64_t)H.buttons)
				fail("no button %" PRIu64, a);
			H.pressed[a] = b != 0;
		} else if (!strcmp(word, "send") && sscanf(line, "send %s", arg) == 1) {
			uart_queue(arg);
		} else if (!strcmp(word, "eeprom") && sscanf(line, "eeprom %s", arg) == 1) {
			ee_save(arg);
			printf("saved\n");
		} else if (!strcmp(word, "stats")) {
			printf("stats %" PRIu64 " %" PRIu64 " %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
					" %" PRIu64 " %" PRIu64 "\n",
					now_ns(), (uint64_t)avr->cycle, H.min_sp, H.ee_ops, H.violations,
					H.floating, H.held, H.cli_longest, H.idles);
		} else if (!strcmp(word, "quit")) {
			break;
		} else {
			fail("bad command %s", line);
		}
		fflush(stdout);
	}
	fflush(stdout);
	return 0;
}
