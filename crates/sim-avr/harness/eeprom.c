/*
 * twenty48-avr-sim: the EEPROM as the datasheet has it (avr_sim.c says what the harness
 * models): its modes and times, the rules broken while it is busy, and a power cut that
 * leaves the byte of the operation it hits torn.
 */
#include "avr_sim.h"

/* ---- EEPROM ---- */

enum { EE_ERASE_WRITE = 0, EE_ERASE = 1, EE_WRITE = 2 };

static uint16_t ee_address(avr_t *avr)
{
	avr_eeprom_t *e = H.ee;
	uint16_t at = avr->data[e->r_eearl] | (e->r_eearh ? avr->data[e->r_eearh] << 8 : 0);
	return at & (e->size - 1);
}

static uint8_t ee_mode(uint8_t eecr)
{
	return (eecr >> 4) & 3;
}

/* What a cut leaves of the byte: some of the bits the operation was changing changed. */
static uint8_t torn(uint8_t old, uint8_t mode, uint8_t data)
{
	uint64_t r = splitmix(&H.tear);
	uint8_t mask = r & 0xff;
	if (mode == EE_ERASE)
		return old | (mask & ~old);
	if (mode == EE_WRITE)
		return old & ~(mask & old & ~data);
	/* Erase and write: cut during the erase, or during the write after it. */
	if (r & 0x100)
		return old | (mask & ~old);
	return 0xff & ~(mask & ~data);
}

static avr_cycle_count_t eempe_clear(avr_t *avr, avr_cycle_count_t when, void *param)
{
	avr_regbit_clear(avr, H.ee->eempe);
	return 0;
}

static avr_cycle_count_t ee_done(avr_t *avr, avr_cycle_count_t when, void *param)
{
	H.ee->eeprom[H.ee_at] = H.ee_result;
	H.ee_busy = 0;
	avr_regbit_clear(avr, H.ee->eepe);
	if (avr_regbit_get(avr, H.ee->ready.enable))
		avr_raise_interrupt(avr, &H.ee->ready);
	return 0;
}

static void ee_start(avr_t *avr, uint8_t mode)
{
	avr_eeprom_t *e = H.ee;
	uint16_t at = ee_address(avr);
	uint8_t old = e->eeprom[at], data = avr->data[e->r_eedr];
	uint8_t result = mode == EE_ERASE ? 0xff : mode == EE_WRITE ? (old & data) : data;
	H.ee_ops++;
	printf("e %" PRIu64 " %" PRIu64 " %u %u %u %u\n", now_ns(), H.ee_ops, mode, at, old, result);
	if (H.ee_ops == H.cut_at) {
		e->eeprom[at] = torn(old, mode, data);
		H.cut = 1;
		return;
	}
	H.ee_busy = 1;
	H.ee_at = at;
	H.ee_result = result;
	avr_regbit_set(avr, e->eepe);
	uint32_t us = mode == EE_ERASE_WRITE ? 3400 : 1800;
	avr_cycle_timer_register_usec(avr, us, ee_done, NULL);
}

static void eecr_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
	avr_eeprom_t *e = H.ee;
	uint8_t old = avr->data[addr];
	uint8_t eempe = 1 << e->eempe.bit, eepe = 1 << e->eepe.bit, eere = 1 << e->eere.bit;
	uint8_t eepm = 3 << 4;
	if (H.ee_busy) {
		if ((v ^ old) & eepm)
			violation("eeprom-mode-changed-while-busy");
		/* A start (EEPE within four cycles of EEMPE); EEPE written back as read is not. */
		if ((v & eepe) && (old & eempe) && (v & eempe))
			violation("eeprom-started-while-busy");
		if (v & eere)
			violation("eeprom-read-while-busy");
		/* EEPM is read-only while busy; EEPE stays set. */
		v = (v & ~eepm) | (old & eepm);
		avr->data[addr] = (v & ~(eepe | eere)) | eepe;
		if ((v & eempe) && !(old & eempe))
			avr_cycle_timer_register(avr, 4, eempe_clear, NULL);
		return;
	}
	avr->data[addr] = v & ~(eepe | eere);
	if ((v & eempe) && !(old & eempe))
		avr_cycle_timer_register(avr, 4, eempe_clear, NULL);
	if (v & eere)
		avr->data[e->r_eedr] = e->eeprom[ee_address(avr)];
	if (v & eepe) {
		if (!(old & eempe)) {
			violation("eeprom-eepe-without-eempe");
		} else if (ee_mode(v) == 3) {
			violation("eeprom-reserved-mode");
		} else {
			avr_regbit_clear(avr, e->eempe);
			ee_start(avr, ee_mode(v));
		}
	}
}

static void ee_reg_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
	if (H.ee_busy && avr->data[addr] != v)
		violation(addr == H.ee->r_eedr ? "eeprom-data-changed-while-busy" :
				"eeprom-address-changed-while-busy");
	avr->data[addr] = v;
}

void ee_load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail("cannot open the EEPROM image %s: %s", path, strerror(errno));
	size_t n = fread(H.ee->eeprom, 1, H.ee->size, f);
	int extra = fgetc(f);
	fclose(f);
	if (n != H.ee->size || extra != EOF)
		fail("the EEPROM image %s is not %u bytes", path, H.ee->size);
}

void ee_save(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(H.ee->eeprom, 1, H.ee->size, f) != H.ee->size || fclose(f))
		fail("cannot write the EEPROM image %s: %s", path, strerror(errno));
}

void install_eeprom(void)
{
	H.ee = (avr_eeprom_t *)io_of("eeprom", 0);
	if (!H.ee)
		fail("the chip has no EEPROM");
	avr_t *avr = H.avr;
	/* Ours replaces simavr's handler (which writes at once, in any mode). */
	avr->io[AVR_DATA_TO_IO(H.ee->r_eecr)].w.c = eecr_write;
	avr->io[AVR_DATA_TO_IO(H.ee->r_eecr)].w.param = NULL;
	uint8_t regs[3] = {H.ee->r_eedr, H.ee->r_eearl, H.ee->r_eearh};
	for (int i = 0; i < 3; i++) {
		if (!regs[i])
			continue;
		if (avr->io[AVR_DATA_TO_IO(regs[i])].w.c)
			fail("EEPROM register %#x already has a write handler", regs[i]);
		avr_register_io_write(avr, regs[i], ee_reg_write, NULL);
	}
}
