/*
 * twenty48-avr-sim: what the harness's files share (avr_sim.c: the protocol, the pins, the
 * USART, SPI and ADC models, the run; eeprom.c: the EEPROM model). avr_sim.c says what the
 * harness models and how it is driven.
 */
#ifndef TWENTY48_AVR_SIM_H
#define TWENTY48_AVR_SIM_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avr_adc.h"
#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_cycle_timers.h"
#include "sim_io.h"
#include "sim_irq.h"

#define PROTOCOL 3
#define FREQUENCY 16000000u
#define MAX_BUTTONS 8
#define MAX_WATCH 4
#define MAX_HOOKS 8

/* A pin: its port and bit. */
typedef struct pin {
	avr_ioport_t *port;
	uint8_t bit;
} pin_t;

/* A read handler of simavr's that ours runs after its own work. */
typedef struct hook {
	avr_io_addr_t addr;
	avr_io_read_t read;
	void *param;
} hook_t;

/* The harness's state: one chip, one run. Defined in avr_sim.c. */
typedef struct harness {
	avr_t *avr;
	/* Stack: the first address past the static data, the lowest SP seen. */
	uint16_t static_end, min_sp;
	int stack_reported;
	/* Buttons. */
	int buttons;
	pin_t button[MAX_BUTTONS];
	int pressed[MAX_BUTTONS];
	uint64_t idles, last_idle, floating;
	int asleep;
	hook_t hooks[MAX_HOOKS];
	int nhooks;
	/* Watched output pins. */
	int watches;
	pin_t watch[MAX_WATCH];
	char watch_name[MAX_WATCH][16];
	int watch_level[MAX_WATCH];
	/* USART0. */
	avr_uart_t *uart;
	avr_irq_t *uart_in;
	uint8_t *rx;
	size_t rx_len, rx_head, rx_cap;
	uint64_t held, frames;
	/* Interrupts off (SREG's I clear, the chip awake, USART0's receiver on): since when,
	 * and the longest stretch. */
	uint64_t cli_since, cli_longest;
	/* SPI and the chip select sampled with each byte. */
	avr_spi_t *spi;
	int spi_busy, has_cs;
	pin_t cs;
	/* EEPROM. */
	avr_eeprom_t *ee;
	int ee_busy;
	uint16_t ee_at;
	uint8_t ee_result;
	uint64_t ee_ops, cut_at, tear;
	int cut;
	uint64_t violations;
	/* ADC noise. */
	uint64_t noise;
} harness_t;

extern harness_t H;

/* avr_sim.c */
uint64_t now_ns(void);
void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
uint64_t splitmix(uint64_t *state);
void violation(const char *what);
avr_io_t *io_of(const char *kind, char name);

/* eeprom.c */
void install_eeprom(void);
void ee_load(const char *path);
void ee_save(const char *path);

#endif
