/* A probe of the harness's chip models (crates/sim-avr/tests/harness.rs), for the
   ATmega328P: each step does what the datasheet defines and sends what it saw on USART0. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <stdint.h>

/* Static data large enough that a modest recursion reaches it. */
volatile uint8_t big[1500];
volatile uint8_t sink;

static void tx(uint8_t b)
{
	while (!(UCSR0A & (1 << UDRE0)))
		;
	UDR0 = b;
}

static void tx16(uint16_t v)
{
	tx(v & 0xff);
	tx(v >> 8);
}

static void ee_wait(void)
{
	while (EECR & (1 << EEPE))
		;
}

/* One EEPROM operation in `mode` (EEPM bits); returns the Timer1 ticks (4 us) EEPE stayed set. */
static uint16_t ee_op(uint16_t at, uint8_t data, uint8_t mode)
{
	ee_wait();
	EEAR = at;
	EEDR = data;
	cli();
	EECR = mode | (1 << EEMPE);
	EECR = mode | (1 << EEMPE) | (1 << EEPE);
	uint16_t t0 = TCNT1;
	sei();
	ee_wait();
	return TCNT1 - t0;
}

static uint8_t ee_read(uint16_t at)
{
	ee_wait();
	EEAR = at;
	EECR |= 1 << EERE;
	return EEDR;
}

static uint8_t deep(uint8_t n)
{
	volatile uint8_t pad[32];
	pad[0] = n;
	if (n == 0)
		return pad[0];
	return deep(n - 1) + pad[0];
}

int main(void)
{
	UBRR0 = 16;
	UCSR0A = 1 << U2X0;
	UCSR0B = (1 << TXEN0) | (1 << RXEN0);
	UCSR0C = 6;
	TCCR1A = 0;
	TCCR1B = 3; /* clk/64 */
	tx('P');
	uint16_t t;
	t = ee_op(10, 0x5A, 0); /* erase and write */
	tx(ee_read(10));
	tx16(t);
	t = ee_op(10, 0x0F, 1 << EEPM1); /* write only: 0x5A & 0x0F */
	tx(ee_read(10));
	tx16(t);
	t = ee_op(10, 0x00, 1 << EEPM0); /* erase only */
	tx(ee_read(10));
	tx16(t);
	/* A read while a write is under way (a broken rule). */
	EEAR = 11;
	EEDR = 0x33;
	EECR = 1 << EEMPE;
	EECR = (1 << EEMPE) | (1 << EEPE);
	EECR = 1 << EERE;
	ee_wait();
	/* EEPE without EEMPE: no write (a broken rule). */
	EEAR = 12;
	EEDR = 0x00;
	EECR = 1 << EEPE;
	tx(ee_read(12));
	/* SPI master at clk/16: a byte written during a transfer (a broken rule), then two paced. */
	DDRB |= (1 << 2) | (1 << 3) | (1 << 5);
	PORTB |= 1 << 2;
	SPCR = (1 << SPE) | (1 << MSTR) | (1 << SPR0);
	SPDR = 0xF8;
	SPDR = 0x11;
	while (!(SPSR & (1 << SPIF)))
		;
	SPDR = 0xF8;
	while (!(SPSR & (1 << SPIF)))
		;
	SPDR = 0x22;
	while (!(SPSR & (1 << SPIF)))
		;
	/* D4 read with no pull-up (floating), then with it (released: high). */
	DDRD &= ~(1 << 4);
	PORTD &= ~(1 << 4);
	sink = PIND;
	PORTD |= 1 << 4;
	tx((PIND >> 4) & 1);
	tx('E');
	/* Bytes the test sends now are never read: they wait. */
	for (volatile uint32_t i = 0; i < 30000; i++)
		;
	big[0] = 1;
	sink = deep(20);
	/* Sleep with interrupts off: the end. */
	cli();
	SMCR = 1 << SE;
	__asm__ volatile("sleep");
	for (;;)
		;
}
